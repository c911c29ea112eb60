class A {}
try { A(); } catch (e) { console.log(e instanceof TypeError); }
'ok'
