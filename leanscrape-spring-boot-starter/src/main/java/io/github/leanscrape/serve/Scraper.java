package io.github.leanscrape.serve;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import io.github.leanscrape.compression.BodyEncoder;
import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.ExpositionRenderer;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.RenderInputs;
import io.github.leanscrape.exposition.SizeHints;
import io.github.leanscrape.reuse.KeptBodies;
import io.github.leanscrape.reuse.KeptBodies.RenderLease;
import io.github.leanscrape.serve.SharedRenderings.Turn;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * Produces scrape bodies, and keeps scrapes cheap when many arrive at once. A scrape
 * takes a cached body of its kind when there is one ({@link BodyCache}); else it joins a
 * rendering of its kind in flight ({@link SharedRenderings}); else it renders, once
 * admitted ({@link RenderAdmission}), into pooled chunks sized from the previous body of
 * its kind. A body is compressed once in each coding however many scrapes share it
 * ({@link ScrapeBody}).
 *
 * @author leanscrape
 */
public final class Scraper {

	private final ExpositionRenderer renderer;

	private final ChunkPool pool;

	private final SizeHints sizeHints;

	// By the coding's ordinal; null where none.
	private final @Nullable BodyEncoder[] encoders = new BodyEncoder[ContentCoding.values().length];

	private final Set<ContentCoding> codings;

	private final BodyCache cache;

	private final SharedRenderings renderings = new SharedRenderings();

	private final RenderAdmission admission;

	private final KeptBodies kept;

	/**
	 * Create a new scraper that reuses what did not change.
	 * @param renderer the renderer that writes the exposition
	 * @param pool the pool of output chunks
	 * @param sizeHints the size hints of each kind of body
	 * @param encoders the encoders of the content codings bodies may be sent in
	 * @param maxConcurrentRenders how many renderings may run at once
	 * @param cacheTimeToLive how long a body may be served again, or zero for never
	 * @param maxHeldBodies the most memory bodies may hold at once, in multiples of the
	 * largest recent body, or zero (or less) for no limit
	 */
	public Scraper(ExpositionRenderer renderer, ChunkPool pool, SizeHints sizeHints, List<BodyEncoder> encoders,
			int maxConcurrentRenders, Duration cacheTimeToLive, double maxHeldBodies) {
		this(renderer, pool, sizeHints, encoders, maxConcurrentRenders, cacheTimeToLive, maxHeldBodies, true);
	}

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
		this.renderer = renderer;
		this.pool = pool;
		this.sizeHints = sizeHints;
		Set<ContentCoding> codings = EnumSet.noneOf(ContentCoding.class);
		for (BodyEncoder encoder : encoders) {
			this.encoders[encoder.coding().ordinal()] = encoder;
			codings.add(encoder.coding());
		}
		this.codings = Collections.unmodifiableSet(codings);
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
	public Served scrape(PrometheusOutputFormat format, @Nullable Set<String> includedNames, long deadlineNanos)
			throws ScrapeRejectedException {
		BodyKind kind = BodyKind.of(format, includedNames);
		ScrapeBody cached = this.cache.get(kind);
		if (cached != null) {
			return new Served(cached, Outcome.CACHED);
		}
		Turn turn = this.renderings.startOrJoin(kind);
		if (!turn.renders()) {
			return new Served(SharedRenderings.await(turn.rendering(), deadlineNanos), Outcome.COALESCED);
		}
		ScrapeBody body;
		try {
			PooledBody plain = renderAdmitted(kind, deadlineNanos);
			try {
				body = new ScrapeBody(plain);
			}
			catch (RuntimeException | Error ex) {
				plain.release();
				throw ex;
			}
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
		return render(BodyKind.of(format, includedNames), RenderInputs.NONE, null);
	}

	// The lease opens before the memory is reserved (a rendering that reads its kind's
	// kept body as it writes needs less) and closes before it is given back, so that what
	// it still holds of that body goes back to the pool first.
	private PooledBody renderAdmitted(BodyKind kind, long deadlineNanos) throws ScrapeRejectedException {
		this.admission.acquireSlot(deadlineNanos);
		long reserved = 0;
		try {
			try (RenderLease lease = this.kept.lease(kind)) {
				reserved = this.admission.reserve(kind, deadlineNanos, lease);
				return render(kind, lease.start(), lease);
			}
		}
		finally {
			this.admission.leave(reserved);
		}
	}

	private PooledBody render(BodyKind kind, RenderInputs inputs, @Nullable RenderLease lease) {
		ChunkedOutput output = new ChunkedOutput(this.pool, kind, this.sizeHints.expectedSize(kind),
				(lease != null) ? lease.observer() : null);
		PooledBody body;
		try {
			this.renderer.render(kind.format(), kind.includedNames(), output, inputs);
			// The pool retains what the next rendering of this kind will take: its output
			// and its working buffer (protobuf's families). Recorded before the chunks
			// become a body, which an Error here would leak.
			this.sizeHints.record(kind, output.size() + output.workingBytes());
			body = output.toBody();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Writing metrics failed", ex);
		}
		finally {
			output.discard();
		}
		if (lease != null) {
			try {
				lease.commit(body);
			}
			catch (RuntimeException | Error ex) {
				body.release();
				throw ex;
			}
		}
		return body;
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
	public PooledBody encode(ScrapeBody body, ContentCoding coding) {
		BodyEncoder encoder = this.encoders[coding.ordinal()];
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
	public void forgetKeptSegments() {
		this.kept.forgetAll();
	}

	/**
	 * Return the encoders, one per content coding.
	 * @return the encoders, none when compression is off
	 */
	public List<BodyEncoder> encoders() {
		List<BodyEncoder> encoders = new ArrayList<>();
		for (BodyEncoder encoder : this.encoders) {
			if (encoder != null) {
				encoders.add(encoder);
			}
		}
		return encoders;
	}

	/**
	 * Return how many pooled chunks what is kept between scrapes holds.
	 * @return the chunks kept
	 */
	public long keptChunks() {
		return this.kept.heldChunks();
	}

	/** Drop every cached body, giving its chunks back to the pool. */
	public void clearCache() {
		this.cache.clear();
	}

	int rendersInFlight() {
		return this.admission.rendersInFlight();
	}

	/**
	 * Return how many scrapes wait now for a rendering that another scrape started.
	 * @return the scrapes waiting for a shared rendering
	 */
	public int scrapesWaiting() {
		return this.renderings.waiting();
	}

}
