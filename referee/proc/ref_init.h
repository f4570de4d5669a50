/*
 * ref_init.h - the records arena-bot-init (ref_init.c) writes to the
 * referee about a sandboxed bot, one write of one record each.
 */
#ifndef REF_INIT_H
#define REF_INIT_H

enum {
    REF_INIT_STARTED = 'S',   /* the bot's program was exec'd; value 0 */
    REF_INIT_FAILED  = 'F',   /* it could not be; value an errno */
    REF_INIT_EXITED  = 'X'    /* it ended; value its wait status */
};

typedef struct ref_init_record {
    int kind;
    int value;
} ref_init_record;

#endif /* REF_INIT_H */
