/* lapack.h: the BLAS and LAPACK routines evkit and Faiss call, loaded from
 * the system's libraries (liblapack.so.3, libblas.so.3: OpenBLAS, or the
 * reference ones) on the first call of any of them, not at start.
 *
 * Why: OpenBLAS costs a process about 4 ms to start (12,000 symbol
 * bindings) and starts a thread that spins for about 0.1 s beside the
 * program, taking a core from whatever runs alongside (ev-hybrid's lanes run
 * side by side).  Most commands that link Faiss never call BLAS for a single
 * query, so they no longer pay for it.
 *
 * Each routine keeps the Fortran calling convention: arguments by address,
 * the hidden lengths of character arguments last (callers that leave them
 * out, as Faiss does, behave as with the libraries linked directly).
 * A library that cannot be loaded, or a routine it lacks, ends the process
 * with exit status 1 and a message naming the Debian package to install:
 * the routines have no way to report a failure.
 *
 * Bottom layer: includes nothing of evkit's. */
#ifndef EV_LAPACK_H
#define EV_LAPACK_H

#include <stddef.h>

/* EV_LAPACK_ROUTINES(X) calls X(name, (parameters), (arguments)) once for
 * each routine: lapack.c defines them from it, and this header declares
 * them. */
#define EV_LAPACK_ROUTINES(X)							\
	X(sgemm_, (const char *ta, const char *tb, const int *m, const int *n,	\
	    const int *k, const float *alpha, const float *a, const int *lda,	\
	    const float *b, const int *ldb, const float *beta, float *c,	\
	    const int *ldc, size_t ta_len, size_t tb_len),			\
	    (ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, ta_len, tb_len)) \
	X(dgemm_, (const char *ta, const char *tb, const int *m, const int *n,	\
	    const int *k, const double *alpha, const double *a, const int *lda, \
	    const double *b, const int *ldb, const double *beta, double *c,	\
	    const int *ldc, size_t ta_len, size_t tb_len),			\
	    (ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, ta_len, tb_len)) \
	X(ssyrk_, (const char *uplo, const char *trans, const int *n,		\
	    const int *k, const float *alpha, const float *a, const int *lda,	\
	    const float *beta, float *c, const int *ldc, size_t uplo_len,	\
	    size_t trans_len),							\
	    (uplo, trans, n, k, alpha, a, lda, beta, c, ldc, uplo_len, trans_len)) \
	X(sgeqrf_, (const int *m, const int *n, float *a, const int *lda,	\
	    float *tau, float *work, const int *lwork, int *info),		\
	    (m, n, a, lda, tau, work, lwork, info))				\
	X(dgeqrf_, (const int *m, const int *n, double *a, const int *lda,	\
	    double *tau, double *work, const int *lwork, int *info),		\
	    (m, n, a, lda, tau, work, lwork, info))				\
	X(sorgqr_, (const int *m, const int *n, const int *k, float *a,	\
	    const int *lda, const float *tau, float *work, const int *lwork,	\
	    int *info),								\
	    (m, n, k, a, lda, tau, work, lwork, info))				\
	X(dorgqr_, (const int *m, const int *n, const int *k, double *a,	\
	    const int *lda, const double *tau, double *work, const int *lwork,	\
	    int *info),								\
	    (m, n, k, a, lda, tau, work, lwork, info))				\
	X(sgesvd_, (const char *jobu, const char *jobvt, const int *m,		\
	    const int *n, float *a, const int *lda, float *s, float *u,	\
	    const int *ldu, float *vt, const int *ldvt, float *work,		\
	    const int *lwork, int *info, size_t jobu_len, size_t jobvt_len),	\
	    (jobu, jobvt, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, info, \
	    jobu_len, jobvt_len))						\
	X(dgesvd_, (const char *jobu, const char *jobvt, const int *m,		\
	    const int *n, double *a, const int *lda, double *s, double *u,	\
	    const int *ldu, double *vt, const int *ldvt, double *work,		\
	    const int *lwork, int *info, size_t jobu_len, size_t jobvt_len),	\
	    (jobu, jobvt, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, info, \
	    jobu_len, jobvt_len))						\
	X(dgesdd_, (const char *jobz, const int *m, const int *n, double *a,	\
	    const int *lda, double *s, double *u, const int *ldu, double *vt,	\
	    const int *ldvt, double *work, const int *lwork, int *iwork,	\
	    int *info, size_t jobz_len),					\
	    (jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, iwork, info, \
	    jobz_len))								\
	X(sgelsd_, (const int *m, const int *n, const int *nrhs, float *a,	\
	    const int *lda, float *b, const int *ldb, float *s,		\
	    const float *rcond, int *rank, float *work, const int *lwork,	\
	    int *iwork, int *info),						\
	    (m, n, nrhs, a, lda, b, ldb, s, rcond, rank, work, lwork, iwork, info)) \
	X(dsyev_, (const char *jobz, const char *uplo, const int *n, double *a, \
	    const int *lda, double *w, double *work, const int *lwork,		\
	    int *info, size_t jobz_len, size_t uplo_len),			\
	    (jobz, uplo, n, a, lda, w, work, lwork, info, jobz_len, uplo_len))	\
	X(sgetrf_, (const int *m, const int *n, float *a, const int *lda,	\
	    int *ipiv, int *info),						\
	    (m, n, a, lda, ipiv, info))						\
	X(dgetrf_, (const int *m, const int *n, double *a, const int *lda,	\
	    int *ipiv, int *info),						\
	    (m, n, a, lda, ipiv, info))						\
	X(sgetri_, (const int *n, float *a, const int *lda, const int *ipiv,	\
	    float *work, const int *lwork, int *info),				\
	    (n, a, lda, ipiv, work, lwork, info))				\
	X(dgetri_, (const int *n, double *a, const int *lda, const int *ipiv,	\
	    double *work, const int *lwork, int *info),				\
	    (n, a, lda, ipiv, work, lwork, info))				\
	X(dlaswp_, (const int *n, double *a, const int *lda, const int *k1,	\
	    const int *k2, const int *ipiv, const int *incx),			\
	    (n, a, lda, k1, k2, ipiv, incx))

#define EV_LAPACK_DECLARE(name, params, args) void name params;
EV_LAPACK_ROUTINES(EV_LAPACK_DECLARE)
#undef EV_LAPACK_DECLARE

#endif
