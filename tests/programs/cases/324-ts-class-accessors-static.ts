class Temperature {
  static readonly ABSOLUTE_ZERO = -273.15;
  private _celsius = 0;
  constructor(celsius: number) { this.celsius = celsius; }
  get celsius(): number { return this._celsius; }
  set celsius(v: number) {
    if (v < Temperature.ABSOLUTE_ZERO) throw new RangeError("below absolute zero");
    this._celsius = v;
  }
  get fahrenheit(): number { return this._celsius * 1.8 + 32; }
  static fromFahrenheit(f: number): Temperature { return new Temperature((f - 32) / 1.8); }
}
const t = Temperature.fromFahrenheit(212);
let err = "";
try { t.celsius = -300; } catch (e) { err = (e as Error).name; }
return { c: t.celsius, f: t.fahrenheit, err, zero: Temperature.ABSOLUTE_ZERO };
