class Config { static defaults; static { this.defaults = { a: 1 }; this.ready = true; } }
[Config.defaults, Config.ready]
