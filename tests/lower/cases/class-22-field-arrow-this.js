class Btn { label = 'ok'; onClick = () => this.label.toUpperCase(); }
const b = new Btn();
const handler = b.onClick;
handler()
