/* faiss_capi.cpp: the subset of Faiss's C API that evkit calls.
 *
 * Debian's libfaiss-dev (1.7.3) ships the C API headers (faiss/c_api/)
 * but not the compiled library libfaiss_c.  The Makefile builds this file only
 * when no libfaiss_c is installed; everything else in evkit is C and calls the
 * official names, declared by the official headers included here, so the
 * signatures cannot drift.  Each function catches every C++ exception, keeps
 * it for faiss_get_last_error() and returns Faiss's own error codes (0 ok,
 * -2 Faiss exception, -4 standard exception, -1 anything else).  Nothing here
 * prints. */
#include <cstdio>
#include <exception>
#include <stdexcept>

#include <faiss/AutoTune.h>
#include <faiss/Index.h>
#include <faiss/impl/FaissException.h>
#include <faiss/impl/IDSelector.h>
#include <faiss/index_factory.h>
#include <faiss/index_io.h>

#include <faiss/c_api/AutoTune_c.h>
#include <faiss/c_api/Index_c.h>
#include <faiss/c_api/error_c.h>
#include <faiss/c_api/error_impl.h>
#include <faiss/c_api/impl/AuxIndexStructures_c.h>
#include <faiss/c_api/index_factory_c.h>
#include <faiss/c_api/index_io_c.h>

thread_local std::exception_ptr faiss_last_exception;

#define EV_CATCH                                                              \
	catch (faiss::FaissException & e) {                                   \
		faiss_last_exception = std::make_exception_ptr(e);            \
		return -2;                                                    \
	}                                                                     \
	catch (std::exception & e) {                                          \
		faiss_last_exception = std::make_exception_ptr(e);            \
		return -4;                                                    \
	}                                                                     \
	catch (...) {                                                         \
		faiss_last_exception = std::make_exception_ptr(              \
			std::runtime_error("unknown error"));                 \
		return -1;                                                    \
	}                                                                     \
	return 0;

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
	if (!faiss_last_exception)
		return nullptr;
	try {
		std::rethrow_exception(faiss_last_exception);
	} catch (std::exception &e) {
		return e.what();
	} catch (...) {
		return "unknown error";
	}
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

void
faiss_Index_free(FaissIndex *obj)
{
	delete ix(obj);
}

int
faiss_Index_d(const FaissIndex *obj)
{
	return cix(obj)->d;
}

int
faiss_Index_is_trained(const FaissIndex *obj)
{
	return cix(obj)->is_trained;
}

idx_t
faiss_Index_ntotal(const FaissIndex *obj)
{
	return cix(obj)->ntotal;
}

FaissMetricType
faiss_Index_metric_type(const FaissIndex *obj)
{
	return static_cast<FaissMetricType>(cix(obj)->metric_type);
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

int
faiss_read_index(FILE *f, int io_flags, FaissIndex **p_out)
{
	try {
		*p_out = reinterpret_cast<FaissIndex *>(faiss::read_index(f, io_flags));
	}
	EV_CATCH
}

int
faiss_read_index_fname(const char *fname, int io_flags, FaissIndex **p_out)
{
	try {
		*p_out = reinterpret_cast<FaissIndex *>(faiss::read_index(fname, io_flags));
	}
	EV_CATCH
}

void
faiss_IDSelector_free(FaissIDSelector *obj)
{
	delete reinterpret_cast<faiss::IDSelector *>(obj);
}

int
faiss_IDSelector_is_member(const FaissIDSelector *sel, idx_t id)
{
	return reinterpret_cast<const faiss::IDSelector *>(sel)->is_member(id);
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
	delete reinterpret_cast<faiss::ParameterSpace *>(obj);
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
