// The error's line is where the failing call was made, inside a helper.
async function loadUser(login) {
  const user = await tools.github.get_user({ login });
  return user.name;
}
const names = [];
for (const login of ["octo-alice", "bob-dev", "mallory"]) {
  names.push(await loadUser(login));
  console.log("loaded", login);
}
return names;
