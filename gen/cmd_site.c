#include "commands.h"
int gs_cmd_site(int argc, char **argv) { (void)argc; (void)argv; return 2; }
