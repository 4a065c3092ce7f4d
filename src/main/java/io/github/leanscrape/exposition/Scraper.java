package io.github.leanscrape.exposition;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * Produces scrape bodies, and keeps scrapes cheap when many arrive at once:
 * <ul>
 * <li>Scrapes of the same {@link ScrapeKind kind} that overlap share one rendering: the
 * first renders, the others wait for it and send the same body.</li>
 * <li>At most a fixed number of renderings run at once; a scrape that cannot start one
 * before its deadline is rejected, rather than queueing without end.</li>
 * <li>The memory that bodies hold at once is bounded: a rendering starts only when the
 * bodies still held (being sent, or cached) and the renderings under way, with what it
 * expects to need, stay within a multiple of the largest recent body. Otherwise it waits
 * for bodies to be released, and is rejected when its deadline passes first.</li>
 * <li>Optionally, a body is served again to scrapes of its kind within a time to
 * live.</li>
 * <li>Each rendering goes into pooled chunks sized from the previous scrape of its kind,
 * and a compressed body is made once per body, however many readers want it.</li>
 * </ul>
 *
 * @author leanscrape
 */
public final class Scraper {

	private static final int MAX_CACHED_KINDS = 16;

	private final ScrapeRenderer renderer;

	private final ChunkPool pool;

	private final ScrapeSizeHints sizeHints;

	private final @Nullable GzipEncoder gzipEncoder;

	private final int maxConcurrentRenders;

	private final Semaphore renderPermits;

	private final long cacheTimeToLiveNanos;

	private final double maxHeldBodies;

	private final ConcurrentHashMap<ScrapeKind, Rendering> inFlight = new ConcurrentHashMap<>();

	private final ConcurrentHashMap<ScrapeKind, Cached> cache = new ConcurrentHashMap<>();

	/**
	 * Create a new scraper.
	 * @param renderer the renderer that writes the exposition
	 * @param pool the pool of output chunks
	 * @param sizeHints the size hints of each kind of scrape
	 * @param gzipEncoder the encoder for compressed bodies, or {@code null} when compression
	 * is off
	 * @param maxConcurrentRenders how many renderings may run at once
	 * @param cacheTimeToLive how long a body may be served again, or zero for never
	 * @param maxHeldBodies the most memory that bodies may hold at once, in multiples of
	 * the largest recent body, or zero (or less) for no limit
	 */
	public Scraper(ScrapeRenderer renderer, ChunkPool pool, ScrapeSizeHints sizeHints,
			@Nullable GzipEncoder gzipEncoder, int maxConcurrentRenders, Duration cacheTimeToLive,
			double maxHeldBodies) {
		if (maxConcurrentRenders < 1) {
			throw new IllegalArgumentException("maxConcurrentRenders must be at least 1");
		}
		this.renderer = renderer;
		this.pool = pool;
		this.sizeHints = sizeHints;
		this.gzipEncoder = gzipEncoder;
		this.maxConcurrentRenders = maxConcurrentRenders;
		this.renderPermits = new Semaphore(maxConcurrentRenders);
		this.cacheTimeToLiveNanos = Math.max(0, cacheTimeToLive.toNanos());
		this.maxHeldBodies = maxHeldBodies;
	}

	/**
	 * Create a scraper with its own pool, size hints and, when compression is on, gzip
	 * encoder.
	 * @param renderer the renderer that writes the exposition
	 * @param headroom bytes added to the previous size of each kind of scrape
	 * @param maxRetained most bytes of free chunks kept between scrapes
	 * @param compressionLevel the gzip level, or {@code 0} for no compression
	 * @param maxConcurrentRenders how many renderings may run at once
	 * @param cacheTimeToLive how long a body may be served again, or zero for never
	 * @param maxHeldBodies the most memory that bodies may hold at once, in multiples of
	 * the largest recent body, or zero (or less) for no limit
	 * @return the scraper
	 */
	public static Scraper create(ScrapeRenderer renderer, long headroom, long maxRetained, int compressionLevel,
			int maxConcurrentRenders, Duration cacheTimeToLive, double maxHeldBodies) {
		ChunkPool pool = new ChunkPool(ChunkPool.DEFAULT_CHUNK_SIZE, maxRetained);
		ScrapeSizeHints sizeHints = new ScrapeSizeHints(pool, headroom);
		GzipEncoder gzip = (compressionLevel != 0) ? new GzipEncoder(pool, compressionLevel) : null;
		return new Scraper(renderer, pool, sizeHints, gzip, maxConcurrentRenders, cacheTimeToLive, maxHeldBodies);
	}

	/**
	 * Serve one scrape, sharing a rendering or a cached body where it can. The caller owns
	 * a reference to the body and must release it.
	 * @param format the format
	 * @param includedNames the families to include, or {@code null} for all
	 * @param deadlineNanos the {@link System#nanoTime()} by which the body must be ready
	 * @return the body and how it was obtained
	 * @throws ScrapeRejectedException when the deadline passes first
	 */
	public Scrape scrape(PrometheusOutputFormat format, @Nullable Set<String> includedNames, long deadlineNanos)
			throws ScrapeRejectedException {
		ScrapeKind kind = new ScrapeKind(format, includedNames, false);
		ScrapeBody cached = cached(kind);
		if (cached != null) {
			return new Scrape(cached, ScrapeOutcome.CACHED);
		}
		while (true) {
			Rendering rendering = new Rendering();
			Rendering existing = this.inFlight.putIfAbsent(kind, rendering);
			if (existing == null) {
				return new Scrape(render(kind, rendering, deadlineNanos), ScrapeOutcome.OK);
			}
			if (existing.join()) {
				return new Scrape(await(existing, deadlineNanos), ScrapeOutcome.COALESCED);
			}
			// That rendering finished as this scrape arrived: look again.
		}
	}

	private ScrapeBody render(ScrapeKind kind, Rendering rendering, long deadlineNanos)
			throws ScrapeRejectedException {
		ScrapeBody body;
		try {
			if (!acquirePermit(deadlineNanos)) {
				throw new ScrapeRejectedException(
						"All " + this.maxConcurrentRenders + " rendering slots stayed busy until the scrape timeout");
			}
			try {
				long reserved = reserveMemory(kind, deadlineNanos);
				if (reserved < 0) {
					throw new ScrapeRejectedException("Scrape bodies held too much memory until the scrape timeout");
				}
				try {
					body = renderNow(kind);
				}
				finally {
					this.pool.unreserve(reserved);
				}
			}
			finally {
				this.renderPermits.release();
			}
		}
		catch (ScrapeRejectedException | RuntimeException | Error ex) {
			this.inFlight.remove(kind, rendering);
			rendering.close();
			rendering.result.completeExceptionally(ex);
			throw ex;
		}
		// No scrape joins once the rendering is closed; each one that joined before gets a
		// reference of its own, so none can find the body already released.
		this.inFlight.remove(kind, rendering);
		int waiters = rendering.close();
		for (int i = 0; i < waiters; i++) {
			body.retain();
		}
		rendering.result.complete(body);
		remember(kind, body);
		return body;
	}

	private boolean acquirePermit(long deadlineNanos) {
		try {
			return this.renderPermits.tryAcquire(Math.max(0, deadlineNanos - System.nanoTime()),
					TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/**
	 * Reserve the chunks that a rendering of a kind, and its compressed copy, are expected
	 * to need, waiting while bodies hold too much.
	 * @return the chunks reserved, or {@code -1} when the deadline passed first
	 */
	private long reserveMemory(ScrapeKind kind, long deadlineNanos) {
		long largest = this.sizeHints.largest();
		if (this.maxHeldBodies <= 0 || largest == 0) {
			// No limit, or no size known yet: the rendering permits alone bound the first
			// renderings.
			return 0;
		}
		long chunkSize = this.pool.chunkSize();
		long wanted = chunks(this.sizeHints.expectedSize(kind), chunkSize);
		if (this.gzipEncoder != null) {
			wanted += chunks(this.sizeHints.expectedSize(kind.compressed()), chunkSize);
		}
		long limit = (long) (this.maxHeldBodies * chunks(largest, chunkSize));
		// Bodies cached past their time to live would otherwise hold memory until their
		// kind is scraped again.
		evictExpired();
		try {
			return this.pool.reserve(wanted, limit, deadlineNanos) ? wanted : -1;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return -1;
		}
	}

	private static long chunks(long bytes, long chunkSize) {
		return (bytes + chunkSize - 1) / chunkSize;
	}

	private void evictExpired() {
		if (this.cacheTimeToLiveNanos == 0 || this.cache.isEmpty()) {
			return;
		}
		long now = System.nanoTime();
		for (Map.Entry<ScrapeKind, Cached> entry : this.cache.entrySet()) {
			Cached cached = entry.getValue();
			if (now - cached.renderedAt > this.cacheTimeToLiveNanos && this.cache.remove(entry.getKey(), cached)) {
				cached.body.release();
			}
		}
	}

	/**
	 * Wait for a rendering this scrape joined, and take the reference it holds for it. A
	 * scrape that gives up first releases that reference when the body arrives.
	 */
	private static ScrapeBody await(Rendering rendering, long deadlineNanos) throws ScrapeRejectedException {
		try {
			return rendering.result.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			rendering.result.thenAccept(ScrapeBody::release);
			throw new ScrapeRejectedException("The rendering this scrape waited for did not finish before its timeout");
		}
		catch (InterruptedException ex) {
			rendering.result.thenAccept(ScrapeBody::release);
			Thread.currentThread().interrupt();
			throw new ScrapeRejectedException("Interrupted while waiting for a rendering");
		}
		catch (ExecutionException ex) {
			Throwable cause = ex.getCause();
			if (cause instanceof ScrapeRejectedException rejected) {
				throw new ScrapeRejectedException(rejected.getMessage());
			}
			if (cause instanceof RuntimeException runtime) {
				throw runtime;
			}
			if (cause instanceof Error error) {
				throw error;
			}
			throw new IllegalStateException(cause);
		}
	}

	/**
	 * Render one scrape into a new body now, without sharing, limits or cache. The caller
	 * owns the body's reference and must release it.
	 * @param format the format
	 * @param includedNames the families to include, or {@code null} for all
	 * @return the body
	 */
	public ScrapeBody renderNow(PrometheusOutputFormat format, @Nullable Set<String> includedNames) {
		return renderNow(new ScrapeKind(format, includedNames, false));
	}

	private ScrapeBody renderNow(ScrapeKind kind) {
		ScrapeBuffer buffer = new ScrapeBuffer(this.pool, kind, this.sizeHints.expectedSize(kind));
		try {
			this.renderer.render(kind.format(), kind.includedNames(), buffer);
			ScrapeBody body = buffer.toBody();
			this.sizeHints.record(kind, body.length());
			return body;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Writing metrics failed", ex);
		}
		finally {
			buffer.discard();
		}
	}

	private @Nullable ScrapeBody cached(ScrapeKind kind) {
		if (this.cacheTimeToLiveNanos == 0) {
			return null;
		}
		Cached cached = this.cache.get(kind);
		if (cached == null) {
			return null;
		}
		if (System.nanoTime() - cached.renderedAt > this.cacheTimeToLiveNanos) {
			if (this.cache.remove(kind, cached)) {
				cached.body.release();
			}
			return null;
		}
		return cached.body.tryRetain() ? cached.body : null;
	}

	private void remember(ScrapeKind kind, ScrapeBody body) {
		if (this.cacheTimeToLiveNanos == 0 || (this.cache.size() >= MAX_CACHED_KINDS && !this.cache.containsKey(kind))) {
			return;
		}
		body.retain();
		Cached previous = this.cache.put(kind, new Cached(body, System.nanoTime()));
		if (previous != null) {
			previous.body.release();
		}
	}

	/**
	 * Drop every cached body, giving its chunks back to the pool.
	 */
	public void clearCache() {
		for (ScrapeKind kind : this.cache.keySet()) {
			Cached cached = this.cache.remove(kind);
			if (cached != null) {
				cached.body.release();
			}
		}
	}

	/**
	 * Return whether bodies can be compressed.
	 * @return {@code true} when compression is on
	 */
	public boolean canCompress() {
		return this.gzipEncoder != null;
	}

	/**
	 * Return the gzip form of a body, compressed once however many readers want it. The
	 * caller owns a reference to the result and must release it.
	 * @param body a body from {@link #scrape}
	 * @return the compressed body
	 */
	public ScrapeBody gzip(ScrapeBody body) {
		GzipEncoder encoder = this.gzipEncoder;
		if (encoder == null) {
			throw new IllegalStateException("Compression is off");
		}
		return body.compressed((plain) -> {
			ScrapeKind kind = ((ScrapeKind) plain.kind()).compressed();
			ScrapeBody encoded = encoder.encode(plain, kind, this.sizeHints.expectedSize(kind));
			this.sizeHints.record(kind, encoded.length());
			return encoded;
		});
	}

	/**
	 * Return how many renderings run now.
	 * @return the renderings in flight
	 */
	public int rendersInFlight() {
		return this.maxConcurrentRenders - this.renderPermits.availablePermits();
	}

	/**
	 * Return how many scrapes wait now for a rendering that another scrape started.
	 * @return the scrapes waiting for a shared rendering
	 */
	public int scrapesWaiting() {
		int waiting = 0;
		for (Rendering rendering : this.inFlight.values()) {
			waiting += rendering.waiters();
		}
		return waiting;
	}

	/**
	 * Return the pool of output chunks.
	 * @return the pool
	 */
	public ChunkPool pool() {
		return this.pool;
	}

	/**
	 * Return the size hints of this scraper.
	 * @return the size hints
	 */
	public ScrapeSizeHints sizeHints() {
		return this.sizeHints;
	}

	/**
	 * Return the renderer of this scraper.
	 * @return the renderer
	 */
	public ScrapeRenderer renderer() {
		return this.renderer;
	}

	private record Cached(ScrapeBody body, long renderedAt) {

	}

	/**
	 * A rendering in flight, and the scrapes that joined it. Joining counts a scrape in;
	 * closing, when the body is ready (or the rendering failed), stops further joins and
	 * tells how many joined, so that each can be given a reference to the body before it
	 * is released by anyone.
	 */
	private static final class Rendering {

		/** The number of scrapes that joined; {@link #CLOSED} once closed. */
		private static final int CLOSED = -1;

		final CompletableFuture<ScrapeBody> result = new CompletableFuture<>();

		private final AtomicInteger joined = new AtomicInteger();

		/**
		 * Count a scrape in, unless the rendering is closed.
		 * @return whether the scrape joined and will get a reference of its own
		 */
		boolean join() {
			int current;
			do {
				current = this.joined.get();
				if (current == CLOSED) {
					return false;
				}
			}
			while (!this.joined.compareAndSet(current, current + 1));
			return true;
		}

		/**
		 * Stop further joins.
		 * @return how many scrapes joined
		 */
		int close() {
			return this.joined.getAndSet(CLOSED);
		}

		int waiters() {
			return Math.max(0, this.joined.get());
		}

	}

}
