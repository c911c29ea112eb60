console.log("throwing a plain string");
throw "something went wrong";
