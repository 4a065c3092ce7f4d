package io.github.leanscrape.exposition;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Remembers the last size of each {@link BodyKind}, to size the next scrape and the
 * {@link ChunkPool}'s retain limit. One hint per kind, so that a filtered scrape does not
 * shrink the full one's buffer; the least recently used kind is forgotten first.
 *
 * @author leanscrape
 */
public final class SizeHints {

	private static final int MAX_KINDS = 64;

	private final ChunkPool pool;

	private final long headroom;

	private final Map<BodyKind, Long> sizes = new LinkedHashMap<>(16, 0.75f, true) {

		@Override
		protected boolean removeEldestEntry(Map.Entry<BodyKind, Long> eldest) {
			return size() > MAX_KINDS;
		}

	};

	private long largest;

	/**
	 * Create a new instance.
	 * @param pool the pool whose retain limit follows the hints
	 * @param headroom the bytes added to the last size of each kind
	 */
	public SizeHints(ChunkPool pool, long headroom) {
		this.pool = pool;
		this.headroom = Math.max(0, headroom);
		pool.retainLimit(0);
	}

	/**
	 * Return the size to expect for the next scrape of a kind.
	 * @param kind the kind of scrape
	 * @return the last size of that kind plus headroom, or the headroom alone
	 */
	public synchronized long expectedSize(BodyKind kind) {
		Long last = this.sizes.get(kind);
		return ((last != null) ? last : 0) + this.headroom;
	}

	/**
	 * Return whether a scrape of a kind has been recorded.
	 * @param kind the kind of scrape
	 * @return {@code true} when its size is known
	 */
	public synchronized boolean isKnown(BodyKind kind) {
		return this.sizes.containsKey(kind);
	}

	/**
	 * Return the size to expect for a kind, or the largest of any kind for one not seen.
	 * @param kind the kind of scrape
	 * @return the expected size in bytes
	 */
	public synchronized long expectedSizeOrLargest(BodyKind kind) {
		Long last = this.sizes.get(kind);
		return ((last != null) ? last : this.largest) + this.headroom;
	}

	/**
	 * Record a scrape's size; the pool retains the sum of all kinds' expected sizes.
	 * @param kind the kind of scrape
	 * @param size the size of its output
	 */
	public synchronized void record(BodyKind kind, long size) {
		long chunkSize = this.pool.chunkSize();
		// Whole chunks: a body of n bytes holds ceil(n / chunkSize) of them.
		long rounded = ((size + this.headroom + chunkSize - 1) / chunkSize) * chunkSize - this.headroom;
		Long previous = this.sizes.put(kind, rounded);
		if (previous != null && previous == rounded) {
			return;
		}
		long sum = 0;
		long max = 0;
		for (Long each : this.sizes.values()) {
			sum += each + this.headroom;
			max = Math.max(max, each);
		}
		this.largest = max;
		this.pool.retainLimit(sum);
	}

	/**
	 * Return the largest size remembered, of any kind, without headroom.
	 * @return the largest size, or {@code 0} when none is known yet
	 */
	public synchronized long largest() {
		return this.largest;
	}

}
