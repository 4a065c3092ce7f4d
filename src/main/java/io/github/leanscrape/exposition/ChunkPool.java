package io.github.leanscrape.exposition;

/**
 * A pool of fixed-size byte chunks from which scrape output is built.
 * <p>
 * Chunks are small enough never to be humongous allocations under G1 (which starts at half
 * a region, 512 KiB at the smallest region size), so a large body is many ordinary
 * objects rather than one giant array. Free chunks are kept in a plain array stack under a
 * lock: acquiring and releasing allocate nothing, unlike a concurrent queue whose nodes
 * would be garbage on every call. The lock is held for a few instructions per chunk,
 * only by scraping threads.
 * <p>
 * The pool keeps at most {@link #retainLimit() retain limit} bytes of free chunks; the
 * limit follows the output actually produced (see {@link ScrapeSizeHints}) and never
 * exceeds the configured maximum, so memory held between scrapes shrinks with the output.
 * Every chunk handed out is counted until it comes back: {@link #leasedChunks()} is zero
 * when no body is outstanding.
 *
 * @author leanscrape
 */
public final class ChunkPool {

	/**
	 * Default chunk size: 64 KiB, far below G1's smallest humongous threshold.
	 */
	public static final int DEFAULT_CHUNK_SIZE = 64 * 1024;

	private final int chunkSize;

	private final long maxRetainedBytes;

	private byte[][] free = new byte[16][];

	private int freeCount;

	private long retainLimitBytes;

	private long leased;

	private long allocated;

	/**
	 * Create a new pool.
	 * @param chunkSize the size of each chunk in bytes
	 * @param maxRetainedBytes the most bytes of free chunks ever kept between scrapes
	 */
	public ChunkPool(int chunkSize, long maxRetainedBytes) {
		if (chunkSize < 64) {
			throw new IllegalArgumentException("chunkSize must be at least 64 bytes");
		}
		this.chunkSize = chunkSize;
		this.maxRetainedBytes = Math.max(0, maxRetainedBytes);
		this.retainLimitBytes = this.maxRetainedBytes;
	}

	/**
	 * Return the size of every chunk of this pool.
	 * @return the chunk size in bytes
	 */
	public int chunkSize() {
		return this.chunkSize;
	}

	/**
	 * Take a chunk, reusing a free one when there is one.
	 * @return a chunk of {@link #chunkSize()} bytes, with undefined content
	 */
	public byte[] acquire() {
		synchronized (this) {
			this.leased++;
			if (this.freeCount > 0) {
				byte[] chunk = this.free[--this.freeCount];
				this.free[this.freeCount] = null;
				return chunk;
			}
			this.allocated++;
		}
		return new byte[this.chunkSize];
	}

	/**
	 * Give a chunk back. It is kept for reuse while the free chunks stay within the retain
	 * limit, dropped otherwise.
	 * @param chunk a chunk obtained from {@link #acquire()}
	 */
	public void release(byte[] chunk) {
		synchronized (this) {
			this.leased--;
			if ((long) (this.freeCount + 1) * this.chunkSize > this.retainLimitBytes) {
				return;
			}
			if (this.freeCount == this.free.length) {
				byte[][] larger = new byte[this.free.length * 2][];
				System.arraycopy(this.free, 0, larger, 0, this.freeCount);
				this.free = larger;
			}
			this.free[this.freeCount++] = chunk;
		}
	}

	/**
	 * Set how many bytes of free chunks may be kept, capped by the configured maximum.
	 * Free chunks beyond the new limit are dropped at once.
	 * @param bytes the wanted retain limit
	 */
	public void retainLimit(long bytes) {
		synchronized (this) {
			this.retainLimitBytes = Math.max(0, Math.min(bytes, this.maxRetainedBytes));
			while ((long) this.freeCount * this.chunkSize > this.retainLimitBytes) {
				this.free[--this.freeCount] = null;
			}
		}
	}

	/**
	 * Return the current retain limit.
	 * @return the most bytes of free chunks kept
	 */
	public synchronized long retainLimit() {
		return this.retainLimitBytes;
	}

	/**
	 * Return how many chunks are handed out and not yet given back.
	 * @return the chunks leased
	 */
	public synchronized long leasedChunks() {
		return this.leased;
	}

	/**
	 * Return how many bytes of free chunks the pool holds now.
	 * @return the bytes retained
	 */
	public synchronized long retainedBytes() {
		return (long) this.freeCount * this.chunkSize;
	}

	/**
	 * Return how many chunks this pool has had to allocate since it was created.
	 * @return the chunks allocated
	 */
	public synchronized long allocatedChunks() {
		return this.allocated;
	}

}
