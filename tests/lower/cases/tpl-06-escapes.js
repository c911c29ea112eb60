`tab\tq"uote\u0041 \` back \${notsub}`
