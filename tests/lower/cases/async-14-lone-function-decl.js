async function main() {
  await null;
  return 'from main';
}
