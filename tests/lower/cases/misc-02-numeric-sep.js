[1_000_000, 0x_ff === undefined, 0b1010_1010, 1_0.5_0].length
