[...'a😀b'].length
