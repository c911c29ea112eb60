class A { m() {} static s() {} }
[Object.keys(A.prototype), Object.keys(A), A.prototype.propertyIsEnumerable('m')]
