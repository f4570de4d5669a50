/*
 * web_bench.h - `arena bench --web` (web_bench.c): the web's routes timed at
 * a million matches.
 */
#ifndef WEB_BENCH_H
#define WEB_BENCH_H

int web_bench_main(int argc, char **argv);

#endif
