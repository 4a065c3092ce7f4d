package io.github.leanscrape.serve;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.leanscrape.compression.BodyEncoder;
import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.ExpositionRenderer;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.PooledBodyRenderer;
import io.github.leanscrape.exposition.RenderInputs;
import io.github.leanscrape.exposition.SizeHints;
import io.github.leanscrape.reuse.KeptBodies;
import io.github.leanscrape.reuse.KeptBodies.RenderLease;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * Produces scrape bodies, and keeps scrapes cheap when many arrive at once.
 *
 * @author leanscrape
 */
public final class Scraper {

	private final PooledBodyRenderer renderer;

	private final SizeHints sizeHints;

	private final Map<ContentCoding, BodyEncoder> encoders = new EnumMap<>(ContentCoding.class);

	private final Set<ContentCoding> codings = Collections.unmodifiableSet(this.encoders.keySet());

	private final BodyCache cache;

	private final SharedRenderings renderings = new SharedRenderings();

	private final RenderAdmission admission;

	private final KeptBodies kept;

	/**
	 * Create a new scraper.
	 * @param renderer the renderer that writes the exposition
	 * @param pool the pool of output chunks
	 * @param sizeHints the size hints of each kind of body
	 * @param encoders the encoders of the content codings bodies may be sent in, none
	 * when compression is off
	 * @param maxConcurrentRenders how many renderings may run at once
	 * @param cacheTimeToLive how long a body may be served again, or zero for never
	 * @param maxHeldBodies the most memory that bodies may hold at once, in multiples of
	 * the largest recent body, or zero (or less) for no limit
	 * @param reuse whether to keep the last body of each kind to copy from
	 */
	public Scraper(ExpositionRenderer renderer, ChunkPool pool, SizeHints sizeHints, List<BodyEncoder> encoders,
			int maxConcurrentRenders, Duration cacheTimeToLive, double maxHeldBodies, boolean reuse) {
		this.kept = new KeptBodies(reuse);
		this.renderer = new PooledBodyRenderer(renderer, pool, sizeHints);
		this.sizeHints = sizeHints;
		for (BodyEncoder encoder : encoders) {
			this.encoders.put(encoder.coding(), encoder);
		}
		this.cache = new BodyCache(cacheTimeToLive);
		this.admission = new RenderAdmission(pool, sizeHints, this.codings, maxConcurrentRenders, maxHeldBodies,
				this.cache, this.kept);
	}

	/**
	 * Serve one scrape, sharing a rendering or a cached body where it can.
	 * @param format the format
	 * @param includedNames the families to include, or {@code null} for all
	 * @param deadlineNanos the {@link System#nanoTime()} by which the body must be ready
	 * @return the body, for the caller to release, and how it was obtained
	 * @throws ScrapeRejectedException when the deadline passes first
	 */
	Served scrape(PrometheusOutputFormat format, @Nullable Set<String> includedNames, long deadlineNanos)
			throws ScrapeRejectedException {
		BodyKind kind = BodyKind.of(format, includedNames);
		ScrapeBody cached = this.cache.get(kind);
		if (cached != null) {
			return new Served(cached, Outcome.CACHED);
		}
		SharedRenderings.Turn turn = this.renderings.startOrJoin(kind);
		if (!turn.renders()) {
			return new Served(SharedRenderings.await(turn.rendering(), deadlineNanos), Outcome.COALESCED);
		}
		ScrapeBody body;
		try {
			body = renderAdmitted(kind, deadlineNanos);
		}
		catch (ScrapeRejectedException | RuntimeException | Error ex) {
			this.renderings.fail(turn.rendering(), ex);
			throw ex;
		}
		this.renderings.complete(turn.rendering(), body);
		this.cache.put(kind, body);
		return new Served(body, Outcome.OK);
	}

	/**
	 * Render one scrape now, without sharing, limits, cache or reuse.
	 * @param format the format
	 * @param includedNames the families to include, or {@code null} for all
	 * @return the body, for the caller to release
	 */
	public PooledBody renderNow(PrometheusOutputFormat format, @Nullable Set<String> includedNames) {
		return this.renderer.render(BodyKind.of(format, includedNames), RenderInputs.NONE, null);
	}

	// The lease opens before the memory is reserved (docs/design.md, step 6) and closes
	// before it is given back, so that what it holds of the body taken goes back first.
	private ScrapeBody renderAdmitted(BodyKind kind, long deadlineNanos) throws ScrapeRejectedException {
		this.admission.acquireSlot(deadlineNanos);
		long reserved = 0;
		ScrapeBody body = null;
		try {
			try (RenderLease lease = this.kept.lease(kind)) {
				reserved = this.admission.reserve(kind, deadlineNanos, lease);
				body = lease.render(this.renderer, ScrapeBody::new);
				return body;
			}
			finally {
				this.admission.leave(reserved);
			}
		}
		catch (RuntimeException | Error ex) {
			if (body != null) {
				body.release();
			}
			throw ex;
		}
	}

	/**
	 * Return the content codings bodies can be sent in.
	 * @return the codings, none when compression is off
	 */
	public Set<ContentCoding> codings() {
		return this.codings;
	}

	/**
	 * Return a body in a content coding, compressed once however many scrapes share it.
	 * @param body a body from {@link #scrape}
	 * @param coding one of the {@link #codings()}
	 * @return the compressed body, for the caller to release
	 */
	PooledBody encode(ScrapeBody body, ContentCoding coding) {
		BodyEncoder encoder = this.encoders.get(coding);
		if (encoder == null) {
			throw new IllegalStateException("No encoder for " + coding.token());
		}
		return body.form(coding, (plain) -> {
			BodyKind kind = plain.kind().encoded(coding);
			PooledBody encoded = this.kept.encode(plain, kind, encoder, this.sizeHints.expectedSize(kind));
			try {
				this.sizeHints.record(kind, encoded.length());
			}
			catch (RuntimeException | Error ex) {
				encoded.release();
				throw ex;
			}
			return encoded;
		});
	}

	/** Drop what is kept between scrapes. */
	public void forgetKept() {
		this.kept.forgetAll();
	}

	/**
	 * Return the encoders, one per content coding.
	 * @return the encoders, none when compression is off
	 */
	public List<BodyEncoder> encoders() {
		return List.copyOf(this.encoders.values());
	}

	/**
	 * Return how many pooled chunks what is kept between scrapes holds.
	 * @return the chunks kept
	 */
	public long keptChunks() {
		return this.kept.heldChunks();
	}

	// Drops every cached body, giving its chunks back to the pool.
	void clearCache() {
		this.cache.clear();
	}

	/**
	 * Return how many renderings run now.
	 * @return the renderings in flight
	 */
	public int rendersInFlight() {
		return this.admission.rendersInFlight();
	}

	/**
	 * Return how many scrapes wait now for a rendering that another scrape started.
	 * @return the scrapes waiting for a shared rendering
	 */
	public int scrapesWaiting() {
		return this.renderings.waiting();
	}

	/** The renderings in flight, one per kind, shared by the scrapes that join them. */
	private static final class SharedRenderings {

		private final ConcurrentHashMap<BodyKind, Rendering> inFlight = new ConcurrentHashMap<>();

		// Whoever renders must complete or fail the rendering; whoever joined awaits it.
		Turn startOrJoin(BodyKind kind) {
			while (true) {
				Rendering rendering = new Rendering(kind);
				Rendering existing = this.inFlight.putIfAbsent(kind, rendering);
				if (existing == null) {
					return new Turn(rendering, true);
				}
				if (existing.join()) {
					return new Turn(existing, false);
				}
				// That rendering finished as this scrape arrived: look again.
			}
		}

		// Every scrape that joined gets a reference; the caller keeps its own.
		void complete(Rendering rendering, ScrapeBody body) {
			this.inFlight.remove(rendering.kind, rendering);
			int waiters = rendering.close();
			for (int i = 0; i < waiters; i++) {
				body.retain();
			}
			rendering.result.complete(body);
		}

		void fail(Rendering rendering, Throwable failure) {
			this.inFlight.remove(rendering.kind, rendering);
			rendering.close();
			rendering.result.completeExceptionally(failure);
		}

		// A scrape that gives up releases the reference held for it when the body
		// arrives.
		static ScrapeBody await(Rendering rendering, long deadlineNanos) throws ScrapeRejectedException {
			try {
				return rendering.result.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
			}
			catch (TimeoutException ex) {
				rendering.result.thenAccept(ScrapeBody::release);
				throw new ScrapeRejectedException(
						"The rendering this scrape waited for did not finish before its timeout");
			}
			catch (InterruptedException ex) {
				rendering.result.thenAccept(ScrapeBody::release);
				Thread.currentThread().interrupt();
				throw new ScrapeRejectedException("Interrupted while waiting for a rendering");
			}
			catch (ExecutionException ex) {
				Throwable cause = ex.getCause();
				if (cause instanceof ScrapeRejectedException rejected) {
					throw new ScrapeRejectedException(Objects.requireNonNullElse(rejected.getMessage(),
							"The rendering this scrape waited for was rejected"));
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

		int waiting() {
			int waiting = 0;
			for (Rendering rendering : this.inFlight.values()) {
				waiting += rendering.waiters();
			}
			return waiting;
		}

		// A scrape's part in a rendering: renders when it started it, not joined it.
		record Turn(Rendering rendering, boolean renders) {

		}

		// Closing it stops joins and tells how many joined, so that each gets a reference
		// to the body before anyone can release it.
		static final class Rendering {

			private static final int CLOSED = -1;

			private final BodyKind kind;

			private final CompletableFuture<ScrapeBody> result = new CompletableFuture<>();

			// Scrapes that joined; CLOSED once closed.
			private final AtomicInteger joined = new AtomicInteger();

			Rendering(BodyKind kind) {
				this.kind = kind;
			}

			boolean join() {
				return this.joined.getAndUpdate((count) -> (count != CLOSED) ? count + 1 : CLOSED) != CLOSED;
			}

			int close() {
				return this.joined.getAndSet(CLOSED);
			}

			int waiters() {
				return Math.max(0, this.joined.get());
			}

		}

	}

}
