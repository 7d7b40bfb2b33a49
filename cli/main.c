/* perfreport entry point: dispatches to the command table in cli/commands.c. */
#include "cli/cli.h"

int main(int argc, char **argv)
{
    return pr_cli_main(argc, argv);
}
