/* Promise-returning work on libuv's thread pool, for the slow functions (pwhash, scrypt, pbkdf2). */
#include <stdlib.h>

#include "nat.h"

#define NAT_ASYNC_MAX_KEEP 8

typedef struct {
  napi_async_work work;
  napi_deferred deferred;
  napi_ref keep[NAT_ASYNC_MAX_KEEP];
  size_t nkeep;
  nat_work_fn fn;
  int rc;
  bool as_bool;
  const char *fail;
  size_t ctx_size;
  unsigned char ctx[]; /* the caller's context, copied */
} nat_job;

static void nat_job_execute(napi_env env, void *data) {
  (void) env;
  nat_job *job = data;
  job->rc = job->fn(job->ctx);
}

static void nat_job_complete(napi_env env, napi_status status, void *data) {
  nat_job *job = data;
  napi_value result = NULL;
  bool ok = status == napi_ok && (job->as_bool || job->rc == 0);
  if (ok) {
    if (job->as_bool) napi_get_boolean(env, job->rc == 0, &result);
    else napi_get_undefined(env, &result);
    napi_resolve_deferred(env, job->deferred, result);
  } else {
    napi_value msg;
    napi_create_string_utf8(env, status == napi_ok ? job->fail : "async work was cancelled",
                            NAPI_AUTO_LENGTH, &msg);
    napi_create_error(env, NULL, msg, &result);
    napi_reject_deferred(env, job->deferred, result);
  }
  for (size_t i = 0; i < job->nkeep; i++) napi_delete_reference(env, job->keep[i]);
  napi_delete_async_work(env, job->work);
  sodium_memzero(job->ctx, job->ctx_size);
  free(job);
}

napi_value nat_async(napi_env env, napi_value *keep, size_t nkeep, nat_work_fn work, const void *ctx,
                     size_t ctx_size, bool as_bool, const char *fail) {
  if (nkeep > NAT_ASYNC_MAX_KEEP) return nat_throw_error(env, "nat_async: too many buffers to keep");
  nat_job *job = calloc(1, sizeof *job + ctx_size);
  if (job == NULL) return nat_throw_error(env, "out of memory");
  memcpy(job->ctx, ctx, ctx_size);
  job->ctx_size = ctx_size;
  job->fn = work;
  job->as_bool = as_bool;
  job->fail = fail;

  napi_value promise, name;
  if (napi_create_promise(env, &job->deferred, &promise) != napi_ok) goto fail;
  for (; job->nkeep < nkeep; job->nkeep++) {
    if (napi_create_reference(env, keep[job->nkeep], 1, &job->keep[job->nkeep]) != napi_ok) goto fail;
  }
  if (napi_create_string_utf8(env, "natrium", NAPI_AUTO_LENGTH, &name) != napi_ok ||
      napi_create_async_work(env, NULL, name, nat_job_execute, nat_job_complete, job, &job->work) != napi_ok ||
      napi_queue_async_work(env, job->work) != napi_ok) {
    goto fail;
  }
  return promise;

fail:
  /* Only reachable before the work was queued: nothing else holds the job. A created deferred
   * cannot be dropped, so it is rejected (its promise is never returned). */
  for (size_t i = 0; i < job->nkeep; i++) napi_delete_reference(env, job->keep[i]);
  if (job->work) napi_delete_async_work(env, job->work);
  if (job->deferred) {
    napi_value undef;
    napi_get_undefined(env, &undef);
    napi_reject_deferred(env, job->deferred, undef);
  }
  sodium_memzero(job->ctx, ctx_size);
  free(job);
  return nat_throw_error(env, "natrium: could not start async work");
}
