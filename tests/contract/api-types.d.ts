// api-types.d.ts -- the module 'puzzled-openapi' that web/js/api.js names in
// its JSDoc: what the front end may send, derived from the types that
// openapi-typescript generates from openapi.yaml (typecheck.mjs writes them
// to build/contract-types/openapi.d.ts, module 'puzzled-openapi-generated',
// together with 'puzzled-openapi-pending': endpoints the front end calls
// before they are in the document).
//
// Paths are relative, as the page sends them ("v1/sudoku/solve"); a GET may
// carry a query string.  Request bodies are the documented media types' body
// types, with enumerations widened to their base type: the front end takes
// most enumerated values from <select> elements, which TypeScript cannot
// know; validate.mjs checks the values the browser tests really sent.

import type { paths } from 'puzzled-openapi-generated';
import type { PendingPaths } from 'puzzled-openapi-pending';

type All = paths & PendingPaths;
type Method = 'get' | 'post' | 'delete';
type Rel<P> = P extends `/${infer R}` ? R : never;

/** The operation a path has for a method, or never. */
type OpOf<P extends keyof All, M extends Method> = All[P] extends { [K in M]: infer O } ? O : never;

/** Relative paths with an operation for method M. */
export type ApiPath<M extends Method> = {
  [P in keyof All]: [OpOf<P, M>] extends [never] ? never : Rel<P>;
}[keyof All];

/** A path of ApiPath<'get'>, with or without a query string. */
export type GetUrl = ApiPath<'get'> | `${ApiPath<'get'>}?${string}`;

/** Literal types widened to their base type, the rest kept. */
export type Widen<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends boolean
      ? boolean
      : T extends readonly (infer U)[]
        ? Widen<U>[]
        : T extends object
          ? { [K in keyof T]: Widen<T[K]> }
          : T;

type Content<P extends keyof All, M extends Method> = OpOf<P, M> extends { requestBody?: infer B }
  ? NonNullable<B> extends { content: infer C }
    ? C
    : never
  : never;

/** The body a POST to relative path R may carry (any documented media type). */
export type PostBody<R extends string> = `/${R}` extends keyof All
  ? Widen<Content<`/${R}`, 'post'>[keyof Content<`/${R}`, 'post'>]>
  : never;

/** The media types such a body may be sent as. */
export type PostType<R extends string> = `/${R}` extends keyof All
  ? Extract<keyof Content<`/${R}`, 'post'>, string>
  : never;

/** What the page may ask for: the documented 200 media types. */
export type AnswerType<P extends keyof All, M extends Method> = OpOf<P, M> extends {
  responses: { 200: { content: infer C } };
}
  ? Extract<keyof C, string>
  : never;

type Async<P extends keyof All, M extends Method> = OpOf<P, M> extends { responses: { 202: unknown } }
  ? boolean
  : false;

/** api.js's options for a call of method M on relative path R. */
export type CallOptions<R extends string, M extends Method> = `/${R}` extends keyof All
  ? {
      contentType?: M extends 'post' ? PostType<R> : never;
      accept?: AnswerType<`/${R}`, M>;
      /** only where the document answers 202 (Prefer: respond-async) */
      job?: Async<`/${R}`, M>;
      signal?: AbortSignal;
      onWait?: (seconds: number, problem: unknown) => void;
      onProgress?: (progress: unknown) => void;
      onJob?: (job: unknown) => void;
      body?: unknown;
    }
  : never;

/** The relative path of a GET url (its query string cut off). */
export type PathOf<U extends string> = U extends `${infer P}?${string}` ? P : U;
