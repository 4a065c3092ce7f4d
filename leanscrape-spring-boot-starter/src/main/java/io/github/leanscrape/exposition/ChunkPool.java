package io.github.leanscrape.exposition;

import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * A pool of fixed-size byte chunks that scrape output is built from, reused without
 * allocating (docs/design.md, Pooled chunks and admission).
 *
 * @author leanscrape
 */
public final class ChunkPool {

	/** Default chunk size: 64 KiB, far below G1's smallest humongous threshold. */
	public static final int DEFAULT_CHUNK_SIZE = 64 * 1024;

	private final int chunkSize;

	private final long maxRetainedBytes;

	/** A stack: the slots below {@link #freeCount} hold free chunks. */
	private byte[] @Nullable [] free = new byte[16][];

	private int freeCount;

	private long retainLimitBytes;

	private long inUse;

	private long peakInUse;

	private long reserved;

	private int waiters;

	private long allocated;

	/**
	 * Create a new pool.
	 * @param chunkSize the size of each chunk in bytes
	 * @param maxRetainedBytes the most bytes of free chunks ever retained between scrapes
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

	byte[] acquire() {
		// A block, not a synchronized method: a new chunk is allocated outside the lock.
		synchronized (this) {
			this.inUse++;
			this.peakInUse = Math.max(this.peakInUse, this.inUse);
			if (this.freeCount > 0) {
				byte[] chunk = Objects.requireNonNull(this.free[--this.freeCount]);
				this.free[this.freeCount] = null;
				return chunk;
			}
			this.allocated++;
		}
		return new byte[this.chunkSize];
	}

	synchronized void release(byte[] chunk) {
		this.inUse--;
		if (this.waiters > 0) {
			notifyAll();
		}
		if ((long) (this.freeCount + 1) * this.chunkSize > this.retainLimitBytes) {
			return;
		}
		if (this.freeCount == this.free.length) {
			this.free = Arrays.copyOf(this.free, this.free.length * 2);
		}
		this.free[this.freeCount++] = chunk;
	}

	/**
	 * Reserve chunks for a rendering, waiting while chunks in use and reserved would
	 * exceed the limit, but never when none are: one rendering can always go ahead.
	 * @param chunks the chunks to reserve
	 * @param limit the most chunks that may be in use and reserved at once
	 * @param deadlineNanos the {@link System#nanoTime()} after which to stop waiting
	 * @return {@code true} when reserved, {@code false} when the deadline passed first
	 * @throws InterruptedException if interrupted while waiting
	 */
	public synchronized boolean reserve(long chunks, long limit, long deadlineNanos) throws InterruptedException {
		while (this.inUse + this.reserved > 0 && this.inUse + this.reserved + chunks > limit) {
			long remaining = deadlineNanos - System.nanoTime();
			if (remaining <= 0) {
				return false;
			}
			this.waiters++;
			try {
				TimeUnit.NANOSECONDS.timedWait(this, remaining);
			}
			finally {
				this.waiters--;
			}
		}
		this.reserved += chunks;
		return true;
	}

	/**
	 * Give back a reservation once its rendering is over.
	 * @param chunks the chunks reserved
	 */
	public synchronized void unreserve(long chunks) {
		this.reserved -= chunks;
		if (this.waiters > 0) {
			notifyAll();
		}
	}

	/**
	 * Return how many chunks are reserved by renderings now.
	 * @return the chunks reserved
	 */
	public synchronized long reservedChunks() {
		return this.reserved;
	}

	synchronized void retainLimit(long bytes) {
		this.retainLimitBytes = Math.max(0, Math.min(bytes, this.maxRetainedBytes));
		while ((long) this.freeCount * this.chunkSize > this.retainLimitBytes) {
			this.free[--this.freeCount] = null;
		}
	}

	/**
	 * Return the current retain limit.
	 * @return the most bytes of free chunks retained
	 */
	public synchronized long retainLimit() {
		return this.retainLimitBytes;
	}

	/**
	 * Return how many chunks are handed out and not yet given back.
	 * @return the chunks in use
	 */
	public synchronized long chunksInUse() {
		return this.inUse;
	}

	/**
	 * Return the most chunks in use at once since the pool was created.
	 * @return the peak of the chunks in use
	 */
	public synchronized long peakChunksInUse() {
		return this.peakInUse;
	}

	/**
	 * Return how many bytes of free chunks the pool holds now.
	 * @return the bytes retained
	 */
	public synchronized long retainedBytes() {
		return (long) this.freeCount * this.chunkSize;
	}

	/**
	 * Return how many chunks this pool has allocated.
	 * @return the chunks allocated
	 */
	public synchronized long allocatedChunks() {
		return this.allocated;
	}

}
