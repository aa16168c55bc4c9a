// The lab program's executable target needs one source of its own; everything it runs (main(),
// the checks, the proxies to the student's launcher) comes from the labN_checks objects.
