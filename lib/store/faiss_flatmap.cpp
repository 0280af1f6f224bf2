/* faiss_flatmap.cpp: a Flat index searched in its mapped file.  See
 * faiss_flatmap.h. */
#include "faiss_flatmap.h"
#include "faiss_scan.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <new>
#include <typeinfo>
#include <vector>

#include <faiss/IndexFlat.h>
#include <faiss/IndexIDMap.h>
#include <faiss/IndexIVFFlat.h>
#include <faiss/impl/FaissAssert.h>
#include <faiss/invlists/OnDiskInvertedLists.h>
#include <faiss/utils/distances.h>

namespace {

/* A Flat index whose vectors are mapped from a file: searched as
 * IndexFlat::search() searches its own, read only; with ids, the hits' ids
 * are those of IndexIDMap (mapped too), as its search() gives them. */
struct MappedFlat : faiss::Index {
	const float *xb;	/* ntotal × d, in the mapping */
	const unsigned char *ids;	/* ntotal 64-bit ids (aligned or not), or nullptr */
	void *map;	/* the mapping holding them, or nullptr when another owns it */
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
		if (map != nullptr)
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

/* The bytes of Faiss's serialisation of an IVF-Flat index before its
 * quantizer's vectors (the centroids): its code and header, nlist and
 * nprobe, then the quantizer's code, header and count of floats. */
const int64_t IVF_PREFIX = 4 + HEADER + 8 + 8 + 4 + HEADER + 8;

/* Reads a mapped file, never past its size. */
struct cursor {
	const unsigned char *base;
	int64_t at, size;

	bool take(void *out, int64_t n)
	{
		if (n < 0 || size - at < n)
			return false;
		std::memcpy(out, base + at, (size_t)n);
		at += n;
		return true;
	}

	bool code(const char *c)
	{
		if (size - at < 4 || std::memcmp(base + at, c, 4) != 0)
			return false;
		at += 4;
		return true;
	}

	/* an index header, of a trained index by inner product or L2 */
	bool header(int32_t *d, int64_t *n, int32_t *metric)
	{
		if (size - at < HEADER || !read_header(base + at, d, n, metric) || base[at + 28] != 1)
			return false;
		at += HEADER;
		return true;
	}
};

/* The list sizes of inverted lists as Faiss writes them ("full": every
 * size; "sprs": (list, size) pairs of the lists not empty) into sizes. */
bool
read_sizes(cursor &c, std::vector<uint64_t> &sizes)
{
	uint64_t count, pair[2];

	if (c.code("full"))
		return c.take(&count, 8) && count == sizes.size() &&
		    c.take(sizes.data(), (int64_t)(8 * count));
	if (!c.code("sprs") || !c.take(&count, 8) || count % 2 != 0)
		return false;
	for (uint64_t i = 0; i < count; i += 2) {
		if (!c.take(pair, 16) || pair[0] >= sizes.size())
			return false;
		sizes[pair[0]] = pair[1];
	}
	return true;
}

/* What map_ivf() found in the file. */
struct ivf_layout {
	int32_t d, metric;
	int64_t n, nlist, nprobe;
	int64_t centroids;	/* their offset in the file */
	std::vector<uint64_t> sizes, offsets;	/* each list's */
};

/* Read the layout of the IVF-Flat index at byte c.at of the mapped file:
 * a quantizer of nlist centroids by the same metric, aligned, no direct
 * map, and array inverted lists lying whole within the file, holding n
 * vectors.  Returns whether it is one. */
bool
read_ivf_layout(cursor &c, ivf_layout &l)
{
	int32_t qd, qmetric;
	int64_t qn, count, nlist, code_size, dm_size;
	char dm;
	uint64_t total = 0;

	if (!c.code("IwFl") || !c.header(&l.d, &l.n, &l.metric) || !c.take(&l.nlist, 8) ||
	    !c.take(&l.nprobe, 8) || l.nlist < 1 ||
	    !c.code(l.metric == faiss::METRIC_INNER_PRODUCT ? "IxFI" : "IxF2") ||
	    !c.header(&qd, &qn, &qmetric) || qd != l.d || qn != l.nlist || qmetric != l.metric ||
	    !c.take(&count, 8) || l.nlist > (c.size - c.at) / 4 / l.d || count != l.nlist * l.d ||
	    c.at % EV_FAISS_FLAT_ALIGN != 0)
		return false;
	l.centroids = c.at;
	c.at += count * 4;
	code_size = (int64_t)l.d * 4;
	if (!c.take(&dm, 1) || dm != 0 || !c.take(&dm_size, 8) || dm_size != 0 ||
	    !c.code("ilar") || !c.take(&nlist, 8) || nlist != l.nlist || !c.take(&count, 8) ||
	    count != code_size)
		return false;
	l.sizes.assign((size_t)nlist, 0);
	l.offsets.assign((size_t)nlist, 0);
	if (!read_sizes(c, l.sizes))
		return false;
	/* each list's codes, then its ids, one list after another */
	for (size_t i = 0; i < l.sizes.size(); i++) {
		if (l.sizes[i] > (uint64_t)(c.size - c.at) / (uint64_t)(code_size + 8))
			return false;
		l.offsets[i] = (uint64_t)c.at;
		c.at += (int64_t)l.sizes[i] * (code_size + 8);
		total += l.sizes[i];
	}
	return total == (uint64_t)l.n;
}

/* The IVF-Flat index of layout l in the file mapped at map (size bytes,
 * from its start), searched where it lies: its centroids a MappedFlat, its
 * lists Faiss's OnDiskInvertedLists over the mapping, as Faiss's reader
 * makes them with IO_FLAG_MMAP.  It owns the mapping.  Throws on no memory
 * (the mapping then still the caller's). */
faiss::IndexIVFFlat *
new_mapped_ivf(const ivf_layout &l, void *map, int64_t size)
{
	const char *base = static_cast<const char *>(map);
	std::unique_ptr<faiss::OnDiskInvertedLists> lists(new faiss::OnDiskInvertedLists());
	std::unique_ptr<MappedFlat> centroids(new MappedFlat(l.d, l.nlist,
	    faiss::MetricType(l.metric), reinterpret_cast<const float *>(base + l.centroids), nullptr,
	    nullptr, 0));
	std::unique_ptr<faiss::IndexIVFFlat> ivf(new faiss::IndexIVFFlat());

	lists->nlist = (size_t)l.nlist;
	lists->code_size = (size_t)l.d * sizeof(float);
	lists->read_only = true;
	lists->lists.resize((size_t)l.nlist);
	for (size_t i = 0; i < lists->lists.size(); i++) {
		lists->lists[i].size = lists->lists[i].capacity = l.sizes[i];
		lists->lists[i].offset = l.offsets[i];
	}
	ivf->d = l.d;
	ivf->ntotal = l.n;
	ivf->is_trained = true;
	ivf->metric_type = faiss::MetricType(l.metric);
	ivf->nlist = (size_t)l.nlist;
	ivf->nprobe = (size_t)l.nprobe;
	ivf->code_size = lists->code_size;
	ivf->quantizer = centroids.release();
	ivf->own_fields = true;
	lists->ptr = static_cast<uint8_t *>(map);	/* from here on the lists own it */
	lists->totsize = (size_t)size;
	ivf->invlists = lists.release();
	ivf->own_invlists = true;
	return ivf.release();
}

/* The page table entries of the mapped bytes [from, from + len) filled in
 * one call, waiting for those not in the page cache to be read, where
 * each fault would map a few pages; on a kernel without
 * MADV_POPULATE_READ (before 5.14), read ahead.  A range it cannot fill
 * is faulted in when read. */
void
populate(const char *from, size_t len)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), start = (uintptr_t)from & ~(page - 1);

	len += (uintptr_t)from - start;
#ifdef MADV_POPULATE_READ
	if (madvise((void *)start, len, MADV_POPULATE_READ) == 0)
		return;
#endif
	(void)madvise((void *)start, len, MADV_WILLNEED);
}

/* ev_faiss_flat_map() of an IVF-Flat index. */
int
map_ivf(int fd, int64_t at, int64_t size, FaissIndex **out)
{
	void *map = mmap(nullptr, (size_t)size, PROT_READ, MAP_SHARED, fd, 0);
	ivf_layout l = {};

	if (map == MAP_FAILED)
		return 0;
	try {
		cursor c = { static_cast<const unsigned char *>(map), at, size };

		if (read_ivf_layout(c, l)) {
			faiss::IndexIVFFlat *ivf = new_mapped_ivf(l, map, size);

			/* every search scans all the centroids: their pages at once */
			populate(static_cast<char *>(map) + l.centroids, (size_t)(l.nlist * l.d * 4));
			*out = reinterpret_cast<FaissIndex *>(ivf);
			return 1;
		}
	} catch (...) {
	}
	munmap(map, (size_t)size);
	return 0;
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
	if (typeid(*idx) == typeid(faiss::IndexIVFFlat)) {
		const faiss::IndexIVFFlat *ivf = static_cast<const faiss::IndexIVFFlat *>(idx);
		const faiss::Index *q = ivf->quantizer;

		return q != nullptr && plain_flat(q) && q->metric_type == ivf->metric_type &&
		    ivf->direct_map.no() && ivf->invlists != nullptr &&
		    typeid(*ivf->invlists) == typeid(faiss::ArrayInvertedLists) ? IVF_PREFIX : -1;
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

	char code[4];

	*out = nullptr;
	if (at < 0 || size - at < 4 || page <= 0 || pread(fd, code, 4, at) != 4)
		return 0;
	if (std::memcmp(code, "IwFl", 4) == 0)
		return map_ivf(fd, at, size, out);
	if (!read_layout(fd, at, size, &l) || l.n == 0)
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

	if (idx != nullptr && typeid(*idx) == typeid(faiss::IndexIVFFlat))
		idx = static_cast<const faiss::IndexIVFFlat *>(idx)->quantizer;
	return idx != nullptr && typeid(*idx) == typeid(MappedFlat);
}
