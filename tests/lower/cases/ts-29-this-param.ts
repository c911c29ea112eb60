function greet(this: { name: string }, greeting: string): string { return greeting + ' ' + this.name; }
greet.call({ name: 'Bo' }, 'hey')
