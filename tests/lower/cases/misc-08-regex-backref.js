/(?<q>['"]).*?\k<q>/.exec(`say "hi" now`)[0]
