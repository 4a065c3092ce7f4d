package io.github.leanscrape.serve;

import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.SizeHints;
import io.github.leanscrape.reuse.KeptBodies;
import io.github.leanscrape.reuse.KeptBodies.RenderLease;
import io.github.leanscrape.reuse.Shed;

/**
 * Decides when a rendering may start: at most a fixed number run at once, and within a
 * limit on the memory bodies hold (docs/design.md, Pooled chunks and admission).
 *
 * @author leanscrape
 */
final class RenderAdmission {

	// A body the cache took meanwhile holds its chunks without a release to wake anyone.
	private static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

	// What a rendering admitted before any body's size was known reserves.
	private static final long UNSIZED = -1;

	private final ChunkPool pool;

	private final SizeHints sizeHints;

	private final Set<ContentCoding> codings;

	private final int maxConcurrentRenders;

	private final Semaphore permits;

	// In multiples of the largest recent body; zero or less for no limit.
	private final double maxHeldBodies;

	private final BodyCache cache;

	private final KeptBodies kept;

	// Admitted before any size was known and not finished: a rendering admitted later
	// counts each as large as the largest body.
	private final AtomicInteger unsizedRenderings = new AtomicInteger();

	RenderAdmission(ChunkPool pool, SizeHints sizeHints, Set<ContentCoding> codings, int maxConcurrentRenders,
			double maxHeldBodies, BodyCache cache, KeptBodies kept) {
		if (maxConcurrentRenders < 1) {
			throw new IllegalArgumentException("maxConcurrentRenders must be at least 1");
		}
		this.pool = pool;
		this.sizeHints = sizeHints;
		this.codings = codings;
		this.maxConcurrentRenders = maxConcurrentRenders;
		this.permits = new Semaphore(maxConcurrentRenders);
		this.maxHeldBodies = maxHeldBodies;
		this.cache = cache;
		this.kept = kept;
	}

	// Waits for a rendering slot; then reserve, and leave in every case.
	void acquireSlot(long deadlineNanos) throws ScrapeRejectedException {
		try {
			if (this.permits.tryAcquire(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS)) {
				return;
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		throw new ScrapeRejectedException(
				"All " + this.maxConcurrentRenders + " rendering slots stayed busy until the scrape timeout");
	}

	// Having a slot, waits for what a rendering and its form need beyond what
	// it gives back as it goes (docs/design.md, admission). Returns what leave gives
	// back: the chunks reserved, or UNSIZED.
	long reserve(BodyKind kind, long deadlineNanos, RenderLease lease) throws ScrapeRejectedException {
		if (this.maxHeldBodies <= 0) {
			return 0;
		}
		long largest = this.sizeHints.largest();
		if (largest == 0) {
			// No size known yet: the rendering permits alone bound the first renderings,
			// and later ones count them (see unsizedRenderings).
			this.unsizedRenderings.incrementAndGet();
			if (this.sizeHints.largest() == 0) {
				return UNSIZED;
			}
			// A size came meanwhile: this rendering is admitted as the others.
			this.unsizedRenderings.decrementAndGet();
			largest = this.sizeHints.largest();
		}
		long chunkSize = this.pool.chunkSize();
		// A kind not rendered yet (another format, say) is expected as large as the
		// largest body: expecting only the headroom would admit it beyond the limit.
		long wanted = chunks(this.sizeHints.expectedSizeOrLargest(kind), chunkSize);
		long encoded = 0;
		for (ContentCoding coding : this.codings) {
			// Scrapers usually ask for one coding; the largest seen for this kind is
			// reserved. A coding not seen for it is not: its first form, a small share
			// of the body, is made unchecked like any form made after the rendering,
			// within the margin between the limit and three bodies.
			BodyKind encodedKind = kind.encoded(coding);
			if (this.sizeHints.isKnown(encodedKind)) {
				encoded = Math.max(encoded, chunks(this.sizeHints.expectedSize(encodedKind), chunkSize));
			}
		}
		long whole = wanted + encoded;
		long takenChunks = lease.takenChunks();
		// The body taken, given back behind the output, is in use already, all of it
		// gone once the form is made.
		wanted = (takenChunks > 0)
				? Math.max(0, Math.max(wanted - lease.chunksGivenBackAsItGoes(), wanted - takenChunks + encoded))
				: whole;
		long largestChunks = chunks(largest, chunkSize);
		long limit = limit(largestChunks, wanted);
		this.cache.evictExpired();
		// The body taken is given back after the third attempt at once.
		int atOnce = (takenChunks > 0) ? 3 : 2;
		try {
			// Kept bodies count within the limit: a scrape storm must not find them on
			// top of the bodies it holds. Attempted at once, after each way to make room
			// (docs/design.md, step 8), then waiting, looking again at least every
			// RECHECK_NANOS: a body the cache took meanwhile, or an unsized rendering
			// that finished, wakes nothing.
			for (int attempt = 0;; attempt++) {
				long now = System.nanoTime();
				long until = (attempt < atOnce) ? now
						: ((deadlineNanos - now > RECHECK_NANOS) ? now + RECHECK_NANOS : deadlineNanos);
				if (this.pool.reserve(wanted, limit - this.unsizedRenderings.get() * largestChunks, until)) {
					return wanted;
				}
				if (attempt >= atOnce && System.nanoTime() - deadlineNanos >= 0) {
					break;
				}
				if (attempt == 0) {
					this.kept.shed(kind, Shed.OTHER_KINDS);
				}
				else if (attempt == 2 && lease.takenChunks() > 0) {
					// Else the rendering could wait on the body it holds itself.
					lease.giveBackTakenBody();
					wanted = whole;
					limit = limit(largestChunks, wanted);
				}
				else {
					// Bodies that only the cache holds would otherwise hold this
					// rendering back for their whole time to live.
					this.cache.clear();
					this.kept.shed(kind, Shed.EVERYTHING);
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		throw new ScrapeRejectedException("Scrape bodies held too much memory until the scrape timeout");
	}

	// Gives back the slot and what reserve returned, 0 where it was not called.
	void leave(long reserved) {
		if (reserved == UNSIZED) {
			this.unsizedRenderings.decrementAndGet();
		}
		else if (reserved != 0) {
			this.pool.unreserve(reserved);
		}
		this.permits.release();
	}

	int rendersInFlight() {
		return this.maxConcurrentRenders - this.permits.availablePermits();
	}

	// At least min(maxHeldBodies, 2) times what it expects (docs/design.md, admission).
	private long limit(long largestChunks, long wanted) {
		return Math.max((long) (this.maxHeldBodies * largestChunks),
				(long) Math.ceil(Math.min(this.maxHeldBodies, 2) * wanted));
	}

	private static long chunks(long bytes, long chunkSize) {
		return (bytes + chunkSize - 1) / chunkSize;
	}

}
