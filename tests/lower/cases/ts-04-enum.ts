enum Color { Red, Green = 5, Blue }
enum Dir { Up = 'UP', Down = 'DOWN' }
const enum Flags { A = 1 << 0, B = 1 << 1, AB = A | B }
[Color.Red, Color.Green, Color.Blue, Color[5], Dir.Up, Flags.AB, Object.keys(Color)]
