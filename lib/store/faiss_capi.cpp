/* faiss_capi.cpp: the subset of Faiss's C API that evkit calls.
 *
 * Debian's libfaiss-dev (1.7.3) ships the C API headers (faiss/c_api/)
 * but not the compiled library libfaiss_c.  The Makefile builds this file only
 * when no libfaiss_c is installed; everything else in evkit is C and calls the
 * official names, declared by the official headers included here, so the
 * signatures cannot drift.  Each function catches every C++ exception
 * (std::bad_alloc included: none may cross into C, where it would abort the
 * program), keeps its text for faiss_get_last_error() and returns Faiss's own
 * error codes (0 ok, -2 Faiss exception, -4 standard exception, -1 anything
 * else); functions that return a value instead return -1 (or do nothing).
 * The text is copied into a fixed buffer when the exception is caught, so
 * that reporting an error needs no allocation (keeping the exception object,
 * as Faiss's own C API does, means rethrowing it, which allocates).  evkit
 * calls Faiss from one thread, so the buffer is a plain static one: a
 * thread_local with a destructor needs an allocation at first use, which
 * glibc cannot report when memory is exhausted.  Nothing here prints. */
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>

#include <faiss/AutoTune.h>
#include <faiss/Index.h>
#include <faiss/impl/FaissException.h>
#include <faiss/impl/IDSelector.h>
#include <faiss/IndexIDMap.h>
#include <faiss/index_factory.h>
#include <faiss/index_io.h>
#include <faiss/utils/distances.h>

#include <faiss/c_api/AutoTune_c.h>
#include <faiss/c_api/Index_c.h>
#include <faiss/c_api/MetaIndexes_c.h>
#include <faiss/c_api/error_c.h>
#include <faiss/c_api/impl/AuxIndexStructures_c.h>
#include <faiss/c_api/index_factory_c.h>
#include <faiss/c_api/index_io_c.h>
#include <faiss/c_api/utils/distances_c.h>

static char last_error[1024];
static bool have_last_error;

/* Keep the text of the exception being handled (noexcept: what() does not
 * allocate, snprintf into a fixed buffer neither). */
static void
keep_error(const char *what) noexcept
{
	std::snprintf(last_error, sizeof last_error, "%s", what ? what : "unknown error");
	have_last_error = true;
}

#define EV_CATCH_RET(faiss_code, std_code, other_code)                        \
	catch (faiss::FaissException & e) {                                   \
		keep_error(e.what());                                         \
		return faiss_code;                                            \
	}                                                                     \
	catch (std::exception & e) {                                          \
		keep_error(e.what());                                         \
		return std_code;                                              \
	}                                                                     \
	catch (...) {                                                         \
		keep_error("unknown error");                                  \
		return other_code;                                            \
	}

#define EV_CATCH                                                              \
	EV_CATCH_RET(-2, -4, -1)                                              \
	return 0;

/* For functions that return nothing. */
#define EV_CATCH_VOID                                                         \
	catch (std::exception & e) {                                          \
		keep_error(e.what());                                         \
	}                                                                     \
	catch (...) {                                                         \
		keep_error("unknown error");                                  \
	}

static faiss::Index *
ix(FaissIndex *p)
{
	return reinterpret_cast<faiss::Index *>(p);
}

static const faiss::Index *
cix(const FaissIndex *p)
{
	return reinterpret_cast<const faiss::Index *>(p);
}

extern "C" {

const char *
faiss_get_last_error()
{
	return have_last_error ? last_error : nullptr;
}

int
faiss_index_factory(FaissIndex **p_index, int d, const char *description, FaissMetricType metric)
{
	try {
		*p_index = reinterpret_cast<FaissIndex *>(faiss::index_factory(d, description,
			static_cast<faiss::MetricType>(metric)));
	}
	EV_CATCH
}

int
faiss_IndexIDMap_new(FaissIndexIDMap **p_index, FaissIndex *index)
{
	try {
		*p_index = reinterpret_cast<FaissIndexIDMap *>(new faiss::IndexIDMap(ix(index)));
	}
	EV_CATCH
}

int
faiss_IndexIDMap2_new(FaissIndexIDMap2 **p_index, FaissIndex *index)
{
	try {
		*p_index = reinterpret_cast<FaissIndexIDMap2 *>(new faiss::IndexIDMap2(ix(index)));
	}
	EV_CATCH
}

void
faiss_IndexIDMap_set_own_fields(FaissIndexIDMap *obj, int own)
{
	reinterpret_cast<faiss::IndexIDMap *>(obj)->own_fields = own != 0;
}

void
faiss_IndexIDMap2_set_own_fields(FaissIndexIDMap2 *obj, int own)
{
	reinterpret_cast<faiss::IndexIDMap2 *>(obj)->own_fields = own != 0;
}

void
faiss_Index_free(FaissIndex *obj)
{
	try {
		delete ix(obj);
	}
	EV_CATCH_VOID
}

int
faiss_Index_d(const FaissIndex *obj)
{
	try {
		return cix(obj)->d;
	}
	EV_CATCH_RET(-1, -1, -1)
}

int
faiss_Index_is_trained(const FaissIndex *obj)
{
	try {
		return cix(obj)->is_trained;
	}
	EV_CATCH_RET(-1, -1, -1)
}

idx_t
faiss_Index_ntotal(const FaissIndex *obj)
{
	try {
		return cix(obj)->ntotal;
	}
	EV_CATCH_RET(-1, -1, -1)
}

FaissMetricType
faiss_Index_metric_type(const FaissIndex *obj)
{
	try {
		return static_cast<FaissMetricType>(cix(obj)->metric_type);
	}
	EV_CATCH_RET(METRIC_INNER_PRODUCT, METRIC_INNER_PRODUCT, METRIC_INNER_PRODUCT)
}

int
faiss_Index_train(FaissIndex *index, idx_t n, const float *x)
{
	try {
		ix(index)->train(n, x);
	}
	EV_CATCH
}

int
faiss_Index_add_with_ids(FaissIndex *index, idx_t n, const float *x, const idx_t *xids)
{
	try {
		ix(index)->add_with_ids(n, x, xids);
	}
	EV_CATCH
}

int
faiss_Index_search(const FaissIndex *index, idx_t n, const float *x, idx_t k, float *distances,
	idx_t *labels)
{
	try {
		cix(index)->search(n, x, k, distances, labels);
	}
	EV_CATCH
}

void
faiss_set_distance_compute_blas_threshold(int value)
{
	faiss::distance_compute_blas_threshold = value;
}

int
faiss_Index_reset(FaissIndex *index)
{
	try {
		ix(index)->reset();
	}
	EV_CATCH
}

int
faiss_Index_remove_ids(FaissIndex *index, const FaissIDSelector *sel, size_t *n_removed)
{
	try {
		size_t n = ix(index)->remove_ids(*reinterpret_cast<const faiss::IDSelector *>(sel));
		if (n_removed)
			*n_removed = n;
	}
	EV_CATCH
}

int
faiss_Index_reconstruct(const FaissIndex *index, idx_t key, float *recons)
{
	try {
		cix(index)->reconstruct(key, recons);
	}
	EV_CATCH
}

int
faiss_write_index(const FaissIndex *idx, FILE *f)
{
	try {
		faiss::write_index(cix(idx), f);
	}
	EV_CATCH
}

int
faiss_write_index_fname(const FaissIndex *idx, const char *fname)
{
	try {
		faiss::write_index(cix(idx), fname);
	}
	EV_CATCH
}

/* The C API's FAISS_IO_FLAG_MMAP (1) is not the C++ library's IO_FLAG_MMAP
 * (Faiss 1.7.3: IO_FLAG_SKIP_IVF_DATA | 0x646f0000, which maps an IVF
 * index's inverted lists from the file instead of reading them): translated
 * here.  (Faiss's own libfaiss_c passes 1 through, which the library
 * ignores: the index is then read whole, as without the flag.) */
static int
cxx_io_flags(int io_flags)
{
	if (io_flags & FAISS_IO_FLAG_MMAP)
		io_flags = (io_flags & ~FAISS_IO_FLAG_MMAP) | faiss::IO_FLAG_MMAP;
	return io_flags;
}

int
faiss_read_index(FILE *f, int io_flags, FaissIndex **p_out)
{
	try {
		*p_out = reinterpret_cast<FaissIndex *>(faiss::read_index(f, cxx_io_flags(io_flags)));
	}
	EV_CATCH
}

int
faiss_read_index_fname(const char *fname, int io_flags, FaissIndex **p_out)
{
	try {
		*p_out = reinterpret_cast<FaissIndex *>(faiss::read_index(fname,
		    cxx_io_flags(io_flags)));
	}
	EV_CATCH
}

void
faiss_IDSelector_free(FaissIDSelector *obj)
{
	try {
		delete reinterpret_cast<faiss::IDSelector *>(obj);
	}
	EV_CATCH_VOID
}

int
faiss_IDSelector_is_member(const FaissIDSelector *sel, idx_t id)
{
	try {
		return reinterpret_cast<const faiss::IDSelector *>(sel)->is_member(id);
	}
	EV_CATCH_RET(-1, -1, -1)
}

int
faiss_IDSelectorBatch_new(FaissIDSelectorBatch **p_sel, size_t n, const idx_t *indices)
{
	try {
		*p_sel = reinterpret_cast<FaissIDSelectorBatch *>(new faiss::IDSelectorBatch(n, indices));
	}
	EV_CATCH
}

int
faiss_ParameterSpace_new(FaissParameterSpace **space)
{
	try {
		*space = reinterpret_cast<FaissParameterSpace *>(new faiss::ParameterSpace());
	}
	EV_CATCH
}

void
faiss_ParameterSpace_free(FaissParameterSpace *obj)
{
	try {
		delete reinterpret_cast<faiss::ParameterSpace *>(obj);
	}
	EV_CATCH_VOID
}

int
faiss_ParameterSpace_set_index_parameter(const FaissParameterSpace *space, FaissIndex *index,
	const char *name, double value)
{
	try {
		reinterpret_cast<const faiss::ParameterSpace *>(space)->set_index_parameter(ix(index),
			name, value);
	}
	EV_CATCH
}

} /* extern "C" */
