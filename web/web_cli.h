/*
 * web_cli.h - `arena serve`, for arena.c's command table.
 */
#ifndef WEB_CLI_H
#define WEB_CLI_H

int web_serve_main(int argc, char **argv, const char *db_path);

#endif
