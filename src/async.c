/* Promise-returning work on libuv's thread pool, for the slow functions (pwhash, scrypt, pbkdf2).
 *
 * The job owns every byte the work touches. Inputs are copied into job memory when the call is
 * made, so the caller may free, shrink, detach or reuse its buffers at once; outputs are written
 * into job memory and copied into the caller's view on the main thread when the work is done, and
 * only if that view still has the length it had (a view that was detached, transferred, freed with
 * sodium_free or shrunk with its resizable ArrayBuffer gets nothing, and the Promise rejects with
 * an Error naming it). Job memory comes from sodium_malloc (guard pages, wiped when freed). */
#include <stdio.h>
#include <stdlib.h>

#include "nat.h"

#define NAT_JOB_MAX_BLOCKS 4

typedef struct {
  unsigned char *data; /* sodium_malloc'd, at least 1 byte */
  size_t len;
  napi_ref view;       /* outputs only: the caller's view, whose first len bytes are written */
  size_t view_len;     /* the view's length when the call was made */
  const char *name;
} nat_job_block;

struct nat_job {
  napi_async_work work;
  napi_deferred deferred;
  nat_work_fn fn;
  int rc;
  bool as_bool;
  bool broken; /* a block could not be allocated: nat_job_start throws */
  const char *fail;
  const char *function_name;
  nat_job_block blocks[NAT_JOB_MAX_BLOCKS];
  size_t nblocks;
  size_t ctx_size;
  unsigned char ctx[]; /* the binding's context: pointers into the blocks, numbers */
};

nat_job *nat_job_new(napi_env env, const char *function_name, size_t ctx_size) {
  nat_job *job = calloc(1, sizeof *job + ctx_size);
  if (job == NULL) {
    nat_throw_error(env, "out of memory");
    return NULL;
  }
  job->ctx_size = ctx_size;
  job->function_name = function_name;
  return job;
}

void *nat_job_ctx(nat_job *job) { return job->ctx; }

static nat_job_block *nat_job_block_new(nat_job *job, size_t len) {
  if (job->broken || job->nblocks == NAT_JOB_MAX_BLOCKS) {
    job->broken = true;
    return NULL;
  }
  unsigned char *data = sodium_malloc(len > 0 ? len : 1);
  if (data == NULL) {
    job->broken = true;
    return NULL;
  }
  nat_job_block *b = &job->blocks[job->nblocks++];
  b->data = data;
  b->len = len;
  return b;
}

unsigned char *nat_job_in(napi_env env, nat_job *job, const unsigned char *data, size_t len) {
  (void) env;
  nat_job_block *b = nat_job_block_new(job, len);
  if (b == NULL) return NULL;
  if (len > 0) memcpy(b->data, data, len);
  return b->data;
}

unsigned char *nat_job_out(napi_env env, nat_job *job, napi_value view, const char *name, size_t view_len,
                           size_t len) {
  nat_job_block *b = nat_job_block_new(job, len);
  if (b == NULL) return NULL;
  b->name = name;
  b->view_len = view_len;
  memset(b->data, 0, len);
  if (napi_create_reference(env, view, 1, &b->view) != napi_ok) {
    b->view = NULL;
    job->broken = true;
    return NULL;
  }
  return b->data;
}

/* Cleanup: a reference or work item Node-API cannot delete has nothing left to tell (void). */
static void nat_job_free(napi_env env, nat_job *job) {
  for (size_t i = 0; i < job->nblocks; i++) {
    if (job->blocks[i].view != NULL) (void) napi_delete_reference(env, job->blocks[i].view);
    sodium_free(job->blocks[i].data);
  }
  if (job->work != NULL) (void) napi_delete_async_work(env, job->work);
  sodium_memzero(job->ctx, job->ctx_size);
  free(job);
}

static void nat_job_execute(napi_env env, void *data) {
  (void) env;
  nat_job *job = data;
  job->rc = job->fn(job->ctx);
}

/* The caller's view of output b, if it still has the length it had when the call was made. */
static unsigned char *nat_job_view(napi_env env, const nat_job_block *b) {
  napi_value view;
  void *ptr = NULL;
  size_t len = 0;
  if (napi_get_reference_value(env, b->view, &view) != napi_ok || view == NULL ||
      napi_get_buffer_info(env, view, &ptr, &len) != napi_ok || len != b->view_len ||
      (ptr == NULL && len > 0)) {
    return NULL;
  }
  return ptr;
}

/* An Error for the rejection; code is NAT_REFUSED_CODE when libsodium refused, else NULL. */
static napi_value nat_job_error(napi_env env, const char *code, const char *format, const char *a, const char *b) {
  char text[256];
  snprintf(text, sizeof text, format, a, b);
  napi_value msg, code_value = NULL, err = NULL;
  if (code != NULL && napi_create_string_utf8(env, code, NAPI_AUTO_LENGTH, &code_value) != napi_ok) return NULL;
  if (napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &msg) != napi_ok ||
      napi_create_error(env, code_value, msg, &err) != napi_ok) {
    return NULL; /* the caller settles with undefined instead */
  }
  return err;
}

static void nat_job_complete(napi_env env, napi_status status, void *data) {
  nat_job *job = data;
  napi_value result = NULL;
  bool resolve = false;
  if (status != napi_ok) {
    result = nat_job_error(env, NULL, "%s: the work was cancelled%s", job->function_name, "");
  } else {
    /* All outputs or none: first check that every view is still whole. */
    const nat_job_block *lost = NULL;
    for (size_t i = 0; i < job->nblocks && lost == NULL; i++) {
      if (job->blocks[i].view != NULL && nat_job_view(env, &job->blocks[i]) == NULL) lost = &job->blocks[i];
    }
    if (lost != NULL) {
      result = nat_job_error(env, NULL, "%s: %s was detached, freed or resized while the work ran; nothing was written",
                             job->function_name, lost->name);
    } else {
      for (size_t i = 0; i < job->nblocks; i++) {
        const nat_job_block *b = &job->blocks[i];
        if (b->view != NULL && b->len > 0) memcpy(nat_job_view(env, b), b->data, b->len);
      }
      if (job->as_bool) {
        resolve = napi_get_boolean(env, job->rc == 0, &result) == napi_ok;
      } else if (job->rc == 0) {
        resolve = napi_get_undefined(env, &result) == napi_ok;
      } else {
        result = nat_job_error(env, NAT_REFUSED_CODE, "%s%s", job->fail, "");
      }
    }
  }
  /* A Promise that cannot be settled would stay pending forever: the failure is thrown instead
   * (from a completion callback Node reports it as an uncaught exception, as NODE_API_CALL does). */
  if ((result == NULL && napi_get_undefined(env, &result) != napi_ok) ||
      (resolve ? napi_resolve_deferred(env, job->deferred, result)
               : napi_reject_deferred(env, job->deferred, result)) != napi_ok) {
    nat_throw_napi(env);
  }
  nat_job_free(env, job);
}

napi_value nat_job_start(napi_env env, nat_job *job, nat_work_fn work, bool as_bool, const char *fail) {
  job->fn = work;
  job->as_bool = as_bool;
  job->fail = fail;
  if (job->broken) {
    nat_job_free(env, job);
    return nat_throw_error(env, "out of memory");
  }
  napi_value promise, name;
  if (napi_create_promise(env, &job->deferred, &promise) != napi_ok) {
    nat_job_free(env, job);
    return nat_throw_napi(env);
  }
  if (napi_create_string_utf8(env, job->function_name, NAPI_AUTO_LENGTH, &name) != napi_ok ||
      napi_create_async_work(env, NULL, name, nat_job_execute, nat_job_complete, job, &job->work) != napi_ok ||
      napi_queue_async_work(env, job->work) != napi_ok) {
    /* Not queued: nothing else holds the job. A created deferred cannot be dropped, so it is
     * rejected (its promise is never returned). */
    napi_value err = NULL;
    nat_throw_napi(env);
    bool pending = false;
    if (napi_is_exception_pending(env, &pending) != napi_ok || !pending ||
        napi_get_and_clear_last_exception(env, &err) != napi_ok) {
      err = NULL;
    }
    if (err == NULL && napi_get_undefined(env, &err) != napi_ok) err = NULL;
    /* already failing: the first failure is the one thrown, these are best effort */
    if (err != NULL) (void) napi_reject_deferred(env, job->deferred, err);
    nat_job_free(env, job);
    if (err != NULL) (void) napi_throw(env, err);
    return NULL;
  }
  return promise;
}
