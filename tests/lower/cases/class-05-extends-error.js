class MyError extends Error { constructor(msg, code) { super(msg); this.name = 'MyError'; this.code = code; } }
try { throw new MyError('bad thing', 42); } catch (e) {
  console.log(e instanceof MyError, e instanceof Error, e.message, e.code, String(e));
}
'ok'
