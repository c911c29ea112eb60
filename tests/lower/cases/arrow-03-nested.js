const add = a => b => c => a + b + c;
add(1)(2)(3)
