try { const { a } = null; } catch (e) { console.log(e instanceof TypeError); }
try { const [x] = undefined; } catch (e) { console.log(e instanceof TypeError); }
'ok'
