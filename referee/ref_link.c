/*
 * ref_link.c - the worker link's job and result, written and read
 * (ref_link.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mps.h"
#include "mpw.h"
#include "ref_link.h"

/* ---- the job ------------------------------------------------------------ */

void ref_link_job_pack(msgpack_sbuffer *sb, const ref_link_job *job)
{
    const ref_terms *t = &job->terms;
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    mpw_message(&pk, REF_LINK_JOB, t->memory_mb >= 0 ? 9 : 8);
    mpw_str(&pk, REF_LINK_ID);      msgpack_pack_int64(&pk, job->id);
    mpw_str(&pk, REF_LINK_GAME);    mpw_str(&pk, job->game);
    mpw_str(&pk, REF_LINK_OPTIONS); mpw_str(&pk, job->options);
    mpw_str(&pk, REF_LINK_SEED);    msgpack_pack_uint64(&pk, job->seed);
    mpw_str(&pk, REF_LINK_BOTS);
    msgpack_pack_array(&pk, (size_t)job->nbots);
    for (int i = 0; i < job->nbots; i++) {
        msgpack_pack_map(&pk, 3 + (job->hash[i][0] != 0) + (job->relay[i] != 0));
        mpw_str(&pk, REF_LINK_CMD); mpw_str(&pk, job->cmd[i]);
        mpw_str(&pk, REF_LINK_CWD); mpw_str(&pk, job->cwd[i]);
        mpw_str(&pk, REF_LINK_ENV); mpw_str(&pk, job->env[i]);
        if (job->relay[i]) {
            mpw_str(&pk, REF_LINK_RELAY); mpw_bool(&pk, 1);
        }
        if (job->hash[i][0]) {
            mpw_str(&pk, REF_LINK_HASH);
            mpw_str(&pk, job->hash[i]);
        }
    }
    mpw_str(&pk, REF_LINK_TIME);
    msgpack_pack_map(&pk, 6);
    mpw_str(&pk, REF_LINK_CLOCK);        mpw_str(&pk, ref_clock_mode_name(t->clock));
    mpw_str(&pk, REF_LINK_CEILING_PCT);  msgpack_pack_int(&pk, t->wall_ceiling_pct);
    mpw_str(&pk, REF_LINK_PONDER);       msgpack_pack_int(&pk, t->ponder);
    mpw_str(&pk, REF_LINK_MOVE_MS);      msgpack_pack_int64(&pk, t->move_ms);
    mpw_str(&pk, REF_LINK_BANK_MS);      msgpack_pack_int64(&pk, t->bank_ms);
    mpw_str(&pk, REF_LINK_HANDSHAKE_MS); msgpack_pack_int64(&pk, t->handshake_ms);
    mpw_str(&pk, REF_LINK_STRIKES);   msgpack_pack_int(&pk, t->strikes);
    mpw_str(&pk, REF_LINK_LOG_BYTES); msgpack_pack_int64(&pk, job->log_bytes);
    if (t->memory_mb >= 0) {
        mpw_str(&pk, REF_LINK_MEMORY_MB);
        msgpack_pack_int64(&pk, t->memory_mb);
    }
}

/* A whole number of map m under key into *dst, if it is one (else *dst
 * keeps its default). */
static void get_i64(const msgpack_object *m, const char *key, int64_t *dst)
{
    int64_t v;
    if (mps_get_int(m, key, &v) == 0)
        *dst = v;
}

static void get_int(const msgpack_object *m, const char *key, int *dst)
{
    int64_t v;
    if (mps_get_int(m, key, &v) == 0)
        *dst = v < -1 ? -1 : v > 1 << 30 ? 1 << 30 : (int)v;    /* checked after */
}

/* The job's terms over their defaults, checked. 0, or -1 with err. */
static int read_terms(const msgpack_object *m, ref_terms *t, char *err, size_t size)
{
    const msgpack_object *time = mps_get(m, REF_LINK_TIME);
    get_i64(time, REF_LINK_MOVE_MS, &t->move_ms);
    get_i64(time, REF_LINK_BANK_MS, &t->bank_ms);
    get_i64(time, REF_LINK_HANDSHAKE_MS, &t->handshake_ms);
    get_int(time, REF_LINK_CEILING_PCT, &t->wall_ceiling_pct);
    get_int(time, REF_LINK_PONDER, &t->ponder);
    t->ponder = t->ponder != 0;
    char clock[8];
    if (mps_get_str(time, REF_LINK_CLOCK, clock, sizeof clock) == 0 &&
        ref_clock_mode_parse(clock, &t->clock) < 0) {
        snprintf(err, size, "malformed job: clock '%s'", clock);
        return -1;
    }
    get_int(m, REF_LINK_STRIKES, &t->strikes);
    get_i64(m, REF_LINK_MEMORY_MB, &t->memory_mb);
    char why[128];
    if (ref_terms_check(t, why, sizeof why) < 0) {
        snprintf(err, size, "malformed job: %s", why);
        return -1;
    }
    return 0;
}

static int read_bots(const msgpack_object *bots, ref_link_job *job, char *err, size_t size)
{
    job->nbots = (int)bots->via.array.size;
    for (int i = 0; i < job->nbots; i++) {
        const msgpack_object *b = &bots->via.array.ptr[i];
        if (mps_get_str(b, REF_LINK_CMD, job->cmd[i], sizeof job->cmd[i]) < 0) {
            snprintf(err, size, "malformed job: bot %d has no command", i);
            return -1;
        }
        if (mps_get(b, REF_LINK_ENV) &&
            mps_get_str(b, REF_LINK_ENV, job->env[i], sizeof job->env[i]) < 0) {
            snprintf(err, size, "malformed job: bot %d's env is not a text under %d bytes", i,
                     REF_ENV_TEXT);
            return -1;
        }
        if (mps_get_str(b, REF_LINK_CWD, job->cwd[i], sizeof job->cwd[i]) < 0)
            job->cwd[i][0] = 0;
        if (mps_get(b, REF_LINK_HASH) &&
            (mps_get_str(b, REF_LINK_HASH, job->hash[i], sizeof job->hash[i]) < 0 ||
             !ref_link_hash_ok(job->hash[i]))) {
            snprintf(err, size, "malformed job: bot %d's hash is not 64 hex digits", i);
            return -1;
        }
        const msgpack_object *relay = mps_get(b, REF_LINK_RELAY);
        job->relay[i] = relay && relay->type == MSGPACK_OBJECT_BOOLEAN && relay->via.boolean;
    }
    return 0;
}

int ref_link_job_read(const msgpack_object *m, ref_link_job *job, char *err, size_t size)
{
    memset(job, 0, sizeof *job);
    job->id = -1;
    job->log_bytes = REF_LOG_DEFAULT_CAP;
    ref_terms_default(&job->terms);
    mps_get_int(m, REF_LINK_ID, &job->id);
    mps_get_u64(m, REF_LINK_SEED, &job->seed);
    int64_t cap;
    if (mps_get_int(m, REF_LINK_LOG_BYTES, &cap) == 0 && cap >= 0 && cap <= REF_LOG_MAX_CAP)
        job->log_bytes = cap;
    const msgpack_object *bots = mps_get(m, REF_LINK_BOTS);
    if (mps_get_str(m, REF_LINK_GAME, job->game, sizeof job->game) < 0 ||
        mps_get_str(m, REF_LINK_OPTIONS, job->options, sizeof job->options) < 0 ||
        mps_get_u64(m, REF_LINK_SEED, &job->seed) < 0 || !bots ||
        bots->type != MSGPACK_OBJECT_ARRAY || bots->via.array.size < 1 ||
        bots->via.array.size > GAME_MAX_SEATS) {
        snprintf(err, size, "malformed job");
        return -1;
    }
    if (read_bots(bots, job, err, size) < 0)
        return -1;
    return read_terms(m, &job->terms, err, size);
}

/* ---- the result --------------------------------------------------------- */

void ref_link_result_pack(msgpack_sbuffer *sb, const ref_link_result *r)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    mpw_message(&pk, REF_LINK_RESULT, 6);
    mpw_str(&pk, REF_LINK_ID);          msgpack_pack_int64(&pk, r->id);
    mpw_str(&pk, REF_LINK_ERROR);       mpw_str_or_nil(&pk, r->error);
    mpw_str(&pk, REF_LINK_RECORD);      mpw_str_or_nil(&pk, r->record);
    mpw_str(&pk, REF_LINK_STARTED_MS);  msgpack_pack_int64(&pk, r->started_ms);
    mpw_str(&pk, REF_LINK_FINISHED_MS); msgpack_pack_int64(&pk, r->finished_ms);
    mpw_str(&pk, REF_LINK_LOGS);
    msgpack_pack_array(&pk, (size_t)r->nlogs);
    for (int i = 0; i < r->nlogs; i++) {
        const ref_log *l = &r->logs[i];
        msgpack_pack_map(&pk, 2);
        mpw_str(&pk, REF_LINK_BYTES); msgpack_pack_uint64(&pk, l->bytes);
        mpw_str(&pk, REF_LINK_TEXT);
        msgpack_pack_bin(&pk, l->len);
        msgpack_pack_bin_body(&pk, l->text ? l->text : "", l->len);
    }
}

static char *dup_str(const msgpack_object *map, const char *key)
{
    const msgpack_object *v = mps_get(map, key);
    if (!v || v->type != MSGPACK_OBJECT_STR)
        return NULL;
    char *s = malloc(v->via.str.size + 1);
    if (s) {
        memcpy(s, v->via.str.ptr, v->via.str.size);
        s[v->via.str.size] = 0;
    }
    return s;
}

static void read_logs(const msgpack_object *m, ref_link_result *r)
{
    const msgpack_object *a = mps_get(m, REF_LINK_LOGS);
    if (!a || a->type != MSGPACK_OBJECT_ARRAY)
        return;
    for (uint32_t i = 0; i < a->via.array.size && r->nlogs < GAME_MAX_SEATS; i++) {
        const msgpack_object *e = &a->via.array.ptr[i], *t = mps_get(e, REF_LINK_TEXT);
        uint64_t bytes;
        if (!t || t->type != MSGPACK_OBJECT_BIN || mps_get_u64(e, REF_LINK_BYTES, &bytes) < 0)
            continue;
        ref_log *l = &r->logs[r->nlogs];
        if (!(l->text = malloc(t->via.bin.size + 1)))
            return;
        memcpy(l->text, t->via.bin.ptr, t->via.bin.size);
        l->text[t->via.bin.size] = 0;
        l->len = t->via.bin.size;
        l->bytes = bytes;
        r->log_seat[r->nlogs++] = (int)i;
    }
}

void ref_link_result_read(const msgpack_object *m, ref_link_result *r)
{
    memset(r, 0, sizeof *r);
    mps_get_int(m, REF_LINK_ID, &r->id);
    r->error = dup_str(m, REF_LINK_ERROR);
    r->record = dup_str(m, REF_LINK_RECORD);
    read_logs(m, r);
    mps_get_int(m, REF_LINK_STARTED_MS, &r->started_ms);
    mps_get_int(m, REF_LINK_FINISHED_MS, &r->finished_ms);
    if (!r->error && !r->record)
        r->error = strdup("the worker returned neither a record nor an error");
}

void ref_link_result_free(ref_link_result *r)
{
    free(r->error);
    free(r->record);
    r->error = r->record = NULL;
    for (int i = 0; i < r->nlogs; i++)
        ref_log_free(&r->logs[i]);
    r->nlogs = 0;
}

/* ---- a bot's files by hash: fetch and its answer ------------------------ */

int ref_link_hash_ok(const char *s)
{
    size_t n = 0;
    for (; s[n]; n++)
        if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')))
            return 0;
    return n == REF_LINK_HASH_HEX;
}

void ref_link_fetch_pack(msgpack_sbuffer *sb, int64_t id, const char *hash)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    mpw_message(&pk, REF_LINK_FETCH, 2);
    mpw_str(&pk, REF_LINK_ID);   msgpack_pack_int64(&pk, id);
    mpw_str(&pk, REF_LINK_HASH); mpw_str(&pk, hash);
}

int ref_link_fetch_read(const msgpack_object *m, int64_t *id, char hash[REF_LINK_HASH_HEX + 1])
{
    hash[0] = 0;
    if (mps_get_int(m, REF_LINK_ID, id) < 0 ||
        mps_get_str(m, REF_LINK_HASH, hash, REF_LINK_HASH_HEX + 1) < 0 || !ref_link_hash_ok(hash))
        return -1;
    return 0;
}

void ref_link_bot_pack(msgpack_sbuffer *sb, const ref_link_bot *b)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    mpw_message(&pk, REF_LINK_BOT, 3);
    mpw_str(&pk, REF_LINK_ID);   msgpack_pack_int64(&pk, b->id);
    mpw_str(&pk, REF_LINK_HASH); mpw_str(&pk, b->hash);
    if (b->archive) {
        mpw_str(&pk, REF_LINK_ARCHIVE);
        msgpack_pack_bin(&pk, b->len);
        msgpack_pack_bin_body(&pk, b->archive, b->len);
    } else {
        mpw_str(&pk, REF_LINK_ERROR);
        mpw_str(&pk, b->error);
    }
}

int ref_link_bot_read(const msgpack_object *m, ref_link_bot *b)
{
    memset(b, 0, sizeof *b);
    if (mps_get_int(m, REF_LINK_ID, &b->id) < 0 ||
        mps_get_str(m, REF_LINK_HASH, b->hash, sizeof b->hash) < 0 || !ref_link_hash_ok(b->hash))
        return -1;
    const msgpack_object *a = mps_get(m, REF_LINK_ARCHIVE);
    if (a && a->type == MSGPACK_OBJECT_BIN && a->via.bin.size <= REF_LINK_MAX_ARCHIVE) {
        b->archive = a->via.bin.ptr;
        b->len = a->via.bin.size;
        return 0;
    }
    if (mps_get_str(m, REF_LINK_ERROR, b->error, sizeof b->error) < 0 || !b->error[0])
        snprintf(b->error, sizeof b->error, "the arena's answer has no archive under %d MB",
                 REF_LINK_MAX_ARCHIVE >> 20);
    return 0;
}

void ref_link_progress_pack(msgpack_sbuffer *sb, int64_t id, const char *record)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    mpw_message(&pk, REF_LINK_PROGRESS, 2);
    mpw_str(&pk, REF_LINK_ID);     msgpack_pack_int64(&pk, id);
    mpw_str(&pk, REF_LINK_RECORD); mpw_str_or_nil(&pk, record);
}

char *ref_link_progress_read(const msgpack_object *m, int64_t *id)
{
    *id = -1;
    if (mps_get_int(m, REF_LINK_ID, id) < 0)
        return NULL;
    return dup_str(m, REF_LINK_RECORD);
}
