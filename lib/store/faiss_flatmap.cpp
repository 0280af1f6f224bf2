/* faiss_flatmap.cpp: a Flat index searched in its mapped file.  See
 * faiss_flatmap.h. */
#include "faiss_flatmap.h"
#include "faiss_scan.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <new>
#include <typeinfo>

#include <faiss/IndexFlat.h>
#include <faiss/IndexIDMap.h>
#include <faiss/impl/FaissAssert.h>
#include <faiss/utils/distances.h>

namespace {

/* A Flat index whose vectors are mapped from a file: searched as
 * IndexFlat::search() searches its own, read only; with ids, the hits' ids
 * are those of IndexIDMap (mapped too), as its search() gives them. */
struct MappedFlat : faiss::Index {
	const float *xb;	/* ntotal × d, in the mapping */
	const unsigned char *ids;	/* ntotal 64-bit ids (aligned or not), or nullptr */
	void *map;
	size_t maplen;

	MappedFlat(idx_t dim, idx_t n, faiss::MetricType metric, const float *x,
	    const unsigned char *id, void *m, size_t len)
	    : faiss::Index(dim, metric), xb(x), ids(id), map(m), maplen(len)
	{
		ntotal = n;
		is_trained = true;
	}

	~MappedFlat() override
	{
		munmap(map, maplen);
	}

	void add(idx_t, const float *) override
	{
		FAISS_THROW_MSG("a mapped index is read only");
	}

	void reset() override
	{
		FAISS_THROW_MSG("a mapped index is read only");
	}

	void search(idx_t n, const float *x, idx_t k, float *distances, idx_t *labels,
	    const faiss::SearchParameters *params) const override
	{
		FAISS_THROW_IF_NOT_MSG(!params || !ids, "search params not supported for this index");
		search_flat(n, x, k, distances, labels, params ? params->sel : nullptr);
		for (idx_t i = 0; ids != nullptr && i < n * k; i++)
			if (labels[i] >= 0)
				std::memcpy(&labels[i], ids + labels[i] * sizeof(idx_t), sizeof(idx_t));
	}

	/* IndexFlat::search()'s search: labels are positions. */
	void search_flat(idx_t n, const float *x, idx_t k, float *distances, idx_t *labels,
	    faiss::IDSelector *sel) const
	{
		FAISS_THROW_IF_NOT(k > 0);
		/* a few queries: eight vectors scored at once, as Faiss scores them */
		if (metric_type == faiss::METRIC_INNER_PRODUCT && sel == nullptr &&
		    ev_faiss_scan_flat_ip(n, x, xb, ntotal, d, k, distances, labels) == 1)
			return;
		if (metric_type == faiss::METRIC_INNER_PRODUCT) {
			faiss::float_minheap_array_t res = { size_t(n), size_t(k), labels, distances };
			faiss::knn_inner_product(x, xb, d, n, ntotal, &res, sel);
		} else {
			faiss::float_maxheap_array_t res = { size_t(n), size_t(k), labels, distances };
			faiss::knn_L2sqr(x, xb, d, n, ntotal, &res, nullptr, sel);
		}
	}

	void reconstruct(idx_t key, float *recons) const override
	{
		FAISS_THROW_IF_NOT_MSG(ids == nullptr, "reconstruct not implemented for this type of index");
		FAISS_THROW_IF_NOT(key >= 0 && key < ntotal);
		std::memcpy(recons, xb + key * d, sizeof(float) * d);
	}
};

/* The bytes of Faiss's index header (write_index_header(): d, ntotal, two
 * dummies, is_trained, metric_type), after its four-character code. */
const int64_t HEADER = 4 + 8 + 8 + 8 + 1 + 4;

/* An index header read at p: 1 with its dimension, count and metric (inner
 * product or L2 only), 0 for anything else. */
int
read_header(const unsigned char *p, int32_t *d, int64_t *n, int32_t *metric)
{
	std::memcpy(d, p, 4);
	std::memcpy(n, p + 4, 8);
	std::memcpy(metric, p + 29, 4);
	return *d > 0 && *n >= 0 && (*metric == faiss::METRIC_INNER_PRODUCT ||
	    *metric == faiss::METRIC_L2);
}

/* The plain Flat index of idx (by inner product or L2, of Faiss's own
 * classes), or nullptr. */
const faiss::IndexFlat *
plain_flat(const faiss::Index *idx)
{
	const std::type_info &t = typeid(*idx);

	if (t != typeid(faiss::IndexFlat) && t != typeid(faiss::IndexFlatIP) &&
	    t != typeid(faiss::IndexFlatL2))
		return nullptr;
	if (idx->metric_type != faiss::METRIC_INNER_PRODUCT && idx->metric_type != faiss::METRIC_L2)
		return nullptr;
	return static_cast<const faiss::IndexFlat *>(idx);
}

/* What ev_faiss_flat_map() found in the file. */
struct layout {
	bool idmap;
	int32_t d, metric;
	int64_t n;
	int64_t vectors;	/* their offset in the file */
	int64_t ids;		/* with idmap: the ids' offset */
	int64_t end;
};

/* Read the layout of the index at byte at of fd (size bytes).  Returns 1,
 * or 0 when it is not a Flat index (or an IDMap of one) lying whole within
 * the file. */
int
read_layout(int fd, int64_t at, int64_t size, layout *l)
{
	unsigned char b[2 * (4 + HEADER) + 8];
	int64_t pos, count;
	int32_t d2, m2;
	int64_t n2;

	if (size - at < (int64_t)sizeof b || pread(fd, b, sizeof b, at) != (ssize_t)sizeof b)
		return 0;
	l->idmap = std::memcmp(b, "IxMp", 4) == 0;
	const unsigned char *p = b;
	if (l->idmap) {
		if (!read_header(p + 4, &l->d, &l->n, &l->metric))
			return 0;
		p += 4 + HEADER;
	}
	if (std::memcmp(p, "IxFI", 4) != 0 && std::memcmp(p, "IxF2", 4) != 0)
		return 0;
	if (!read_header(p + 4, &d2, &n2, &m2) ||
	    (l->idmap && (d2 != l->d || n2 != l->n || m2 != l->metric)))
		return 0;
	l->d = d2;
	l->n = n2;
	l->metric = m2;
	if ((m2 == faiss::METRIC_INNER_PRODUCT) != (std::memcmp(p, "IxFI", 4) == 0))
		return 0;
	p += 4 + HEADER;
	std::memcpy(&count, p, 8);
	pos = at + (p - b) + 8;
	if (l->n > (size - pos) / 4 / l->d || count != l->n * l->d)
		return 0;
	l->vectors = pos;
	l->end = pos + count * 4;
	if (l->idmap) {
		if (size - l->end < 8 || pread(fd, &count, 8, l->end) != 8 || count != l->n ||
		    (size - l->end - 8) / 8 < l->n)
			return 0;
		l->ids = l->end + 8;
		l->end = l->ids + 8 * l->n;
	}
	return l->vectors % EV_FAISS_FLAT_ALIGN == 0;
}

} // namespace

long
ev_faiss_flat_prefix(const FaissIndex *index)
{
	const faiss::Index *idx = reinterpret_cast<const faiss::Index *>(index);

	if (idx == nullptr)
		return -1;
	if (typeid(*idx) == typeid(faiss::IndexIDMap)) {
		const faiss::Index *sub = static_cast<const faiss::IndexIDMap *>(idx)->index;

		return sub != nullptr && plain_flat(sub) ? 2 * (4 + HEADER) + 8 : -1;
	}
	return plain_flat(idx) ? 4 + HEADER + 8 : -1;
}

int
ev_faiss_flat_map(int fd, int64_t at, int64_t size, FaissIndex **out)
{
	layout l = {};
	void *map;
	int64_t page = sysconf(_SC_PAGESIZE), from;
	size_t len;

	*out = nullptr;
	if (at < 0 || size <= at || page <= 0 || !read_layout(fd, at, size, &l) || l.n == 0)
		return 0;
	/* the pages holding the vectors (and ids), read ahead: a search reads them all */
	from = l.vectors / page * page;
	len = (size_t)(l.end - from);
	map = mmap(nullptr, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, from);
	if (map == MAP_FAILED)
		return 0;
	try {
		const char *base = static_cast<const char *>(map);

		*out = reinterpret_cast<FaissIndex *>(new MappedFlat(l.d, l.n,
		    faiss::MetricType(l.metric), reinterpret_cast<const float *>(base + (l.vectors - from)),
		    l.idmap ? reinterpret_cast<const unsigned char *>(base + (l.ids - from)) : nullptr,
		    map, len));
		return 1;
	} catch (...) {
		munmap(map, len);
		return 0;
	}
}

int
ev_faiss_flat_mapped(const FaissIndex *index)
{
	const faiss::Index *idx = reinterpret_cast<const faiss::Index *>(index);

	return idx != nullptr && typeid(*idx) == typeid(MappedFlat);
}
