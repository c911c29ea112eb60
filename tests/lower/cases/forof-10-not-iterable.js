try { for (const x of 5) ; } catch (e) { console.log(e instanceof TypeError); }
'ok'
