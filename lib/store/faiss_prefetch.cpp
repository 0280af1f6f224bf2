/* faiss_prefetch.cpp: the prefetch threads of mapped inverted lists.  See
 * faiss_prefetch.h. */
#include "faiss_prefetch.h"

#include <unistd.h>

#include <faiss/IVFlib.h>
#include <faiss/IndexIVF.h>
#include <faiss/invlists/OnDiskInvertedLists.h>

/* The mapped inverted lists of index, or nullptr. */
static faiss::OnDiskInvertedLists *
mapped_lists(const FaissIndex *index)
{
	const faiss::IndexIVF *ivf =
	    faiss::ivflib::try_extract_index_ivf(reinterpret_cast<const faiss::Index *>(index));

	return ivf ? dynamic_cast<faiss::OnDiskInvertedLists *>(ivf->invlists) : nullptr;
}

int
ev_faiss_prefetch_threads(FaissIndex *index, int n)
{
	faiss::OnDiskInvertedLists *lists = mapped_lists(index);

	if (lists == nullptr)
		return 0;
	lists->prefetch_nthread = n < 0 ? 0 : n;
	return 1;
}

int
ev_faiss_prefetch_get(const FaissIndex *index)
{
	const faiss::OnDiskInvertedLists *lists = mapped_lists(index);

	return lists ? lists->prefetch_nthread : -1;
}

int
ev_faiss_prefetch_default(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	return cpus < 1 ? 1 : cpus > 4 ? 4 : (int)cpus;
}
