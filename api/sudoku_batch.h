/* sudoku_batch.h -- POST /v1/sudoku/batch: many 9x9 puzzles in one request,
 * one per line, answered line for line while the batch runs.  See
 * sudoku_batch.c for the formats. */
#ifndef PUZZLED_API_SUDOKU_BATCH_H
#define PUZZLED_API_SUDOKU_BATCH_H

#include "api/endpoint.h"

/* Puzzles per job item at most: small enough that the first answers leave
 * early and both workers stay busy to the end, large enough that an item's
 * cost (two thread wake-ups) is noise next to solving it. */
#define API_BATCH_CHUNK_MAX 256

extern const api_endpoint_t api_ep_sudoku_batch;

int api_sudoku_batch_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp);

#endif
