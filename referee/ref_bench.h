/*
 * ref_bench.h - `referee bench`: the referee's cost per decision against a
 * raw ZeroMQ + msgpack ping-pong of the same bytes (ref_bench.c).
 */
#ifndef REF_BENCH_H
#define REF_BENCH_H

int ref_bench_main(int argc, char **argv);

#endif
