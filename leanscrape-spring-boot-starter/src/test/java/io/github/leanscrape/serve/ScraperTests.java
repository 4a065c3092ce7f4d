package io.github.leanscrape.serve;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.leanscrape.compression.BodyEncoder;
import io.github.leanscrape.compression.EncodedBody;
import io.github.leanscrape.compression.GzipEncoder;
import io.github.leanscrape.compression.ZstdEncoder;
import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.ExpositionRenderer;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.SizeHints;
import io.github.leanscrape.support.OwnCodeTests;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Coalescing, limits, deadlines and the cache of {@link Scraper}, with a renderer whose
 * progress the test controls.
 */
@Tag(OwnCodeTests.TAG)
class ScraperTests {

	private static final PrometheusOutputFormat TEXT = PrometheusOutputFormat.CONTENT_TYPE_004;

	private static final PrometheusOutputFormat OPENMETRICS = PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100;

	private final GatedRenderer renderer = new GatedRenderer();

	private final ExecutorService executor = Executors.newCachedThreadPool();

	@AfterEach
	void stop() {
		this.renderer.open();
		this.executor.shutdownNow();
	}

	private final ChunkPool pool = new ChunkPool(ChunkPool.DEFAULT_CHUNK_SIZE, 1 << 20);

	private Scraper scraper(int maxConcurrentRenders, Duration timeToLive) {
		return new Scraper(this.renderer, this.pool, new SizeHints(this.pool, 1024),
				List.of(new GzipEncoder(this.pool, 1), new ZstdEncoder(this.pool, 1, false)), maxConcurrentRenders,
				timeToLive, 0, false);
	}

	private static long in(Duration duration) {
		return System.nanoTime() + duration.toNanos();
	}

	@Test
	void overlappingScrapesOfOneKindShareOneRendering() throws Exception {
		Scraper scraper = scraper(2, Duration.ZERO);
		this.renderer.close();
		List<Future<Served>> scrapes = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			scrapes.add(this.executor.submit(() -> scraper.scrape(TEXT, null, in(Duration.ofSeconds(30)))));
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> this.renderer.started.get() == 1);
		await().atMost(Duration.ofSeconds(10)).until(() -> scraper.scrapesWaiting() == 19);
		this.renderer.open();
		int rendered = 0;
		int coalesced = 0;
		List<ScrapeBody> bodies = new ArrayList<>();
		for (Future<Served> future : scrapes) {
			Served scrape = future.get(10, TimeUnit.SECONDS);
			bodies.add(scrape.body());
			assertThat(new String(scrape.body().plain().toByteArray(), StandardCharsets.UTF_8)).isEqualTo("body 1\n");
			if (scrape.outcome() == Outcome.OK) {
				rendered++;
			}
			else if (scrape.outcome() == Outcome.COALESCED) {
				coalesced++;
			}
		}
		assertThat(this.renderer.started).hasValue(1);
		assertThat(rendered).isOne();
		assertThat(coalesced).isEqualTo(19);
		bodies.forEach(ScrapeBody::release);
		assertThat(this.pool.chunksInUse()).isZero();
	}

	@Test
	void differentKindsRenderSeparately() throws Exception {
		Scraper scraper = scraper(4, Duration.ZERO);
		Served text = scraper.scrape(TEXT, null, in(Duration.ofSeconds(5)));
		Served filtered = scraper.scrape(TEXT, Set.of("a"), in(Duration.ofSeconds(5)));
		Served openMetrics = scraper.scrape(OPENMETRICS, null, in(Duration.ofSeconds(5)));
		assertThat(this.renderer.started).hasValue(3);
		text.body().release();
		filtered.body().release();
		openMetrics.body().release();
		assertThat(this.pool.chunksInUse()).isZero();
	}

	@Test
	void scrapeThatCannotStartRenderingBeforeItsDeadlineIsRejected() throws Exception {
		Scraper scraper = scraper(1, Duration.ZERO);
		this.renderer.close();
		Future<Served> blocking = this.executor.submit(() -> scraper.scrape(TEXT, null, in(Duration.ofSeconds(30))));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.renderer.started.get() == 1);
		long start = System.nanoTime();
		assertThatExceptionOfType(ScrapeRejectedException.class)
			.isThrownBy(() -> scraper.scrape(OPENMETRICS, null, in(Duration.ofMillis(200))))
			.withMessageContaining("rendering slots");
		assertThat(System.nanoTime() - start).isLessThan(Duration.ofSeconds(5).toNanos());
		this.renderer.open();
		blocking.get(10, TimeUnit.SECONDS).body().release();
		Served after = scraper.scrape(OPENMETRICS, null, in(Duration.ofSeconds(5)));
		assertThat(after.outcome()).isEqualTo(Outcome.OK);
		after.body().release();
		assertThat(this.pool.chunksInUse()).isZero();
	}

	@Test
	void scrapeWaitingForASharedRenderingPastItsDeadlineIsRejected() throws Exception {
		Scraper scraper = scraper(2, Duration.ZERO);
		this.renderer.close();
		Future<Served> first = this.executor.submit(() -> scraper.scrape(TEXT, null, in(Duration.ofSeconds(30))));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.renderer.started.get() == 1);
		assertThatExceptionOfType(ScrapeRejectedException.class)
			.isThrownBy(() -> scraper.scrape(TEXT, null, in(Duration.ofMillis(200))))
			.withMessageContaining("did not finish");
		this.renderer.open();
		first.get(10, TimeUnit.SECONDS).body().release();
		assertThat(this.pool.chunksInUse()).isZero();
	}

	@Test
	void aJoinedScrapeGetsTheBodyEvenAfterEveryoneElseReleasedIt() throws Exception {
		Scraper scraper = scraper(2, Duration.ZERO);
		this.renderer.close();
		Future<Served> first = this.executor.submit(() -> scraper.scrape(TEXT, null, in(Duration.ofSeconds(30))));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.renderer.started.get() == 1);
		Future<Served> waiter = this.executor.submit(() -> scraper.scrape(TEXT, null, in(Duration.ofSeconds(30))));
		await().atMost(Duration.ofSeconds(10)).until(() -> scraper.scrapesWaiting() == 1);
		this.renderer.open();
		// The rendering scrape sends and releases its body before the waiter looks at it.
		first.get(10, TimeUnit.SECONDS).body().release();
		Served joined = waiter.get(10, TimeUnit.SECONDS);
		assertThat(joined.outcome()).isEqualTo(Outcome.COALESCED);
		assertThat(new String(joined.body().plain().toByteArray(), StandardCharsets.UTF_8)).isEqualTo("body 1\n");
		assertThat(this.renderer.started).hasValue(1);
		joined.body().release();
		assertThat(this.pool.chunksInUse()).isZero();
	}

	@Test
	void aJoinedScrapeThatGivesUpLeavesNoChunkInUse() throws Exception {
		Scraper scraper = scraper(2, Duration.ZERO);
		this.renderer.close();
		Future<Served> first = this.executor.submit(() -> scraper.scrape(TEXT, null, in(Duration.ofSeconds(30))));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.renderer.started.get() == 1);
		assertThatExceptionOfType(ScrapeRejectedException.class)
			.isThrownBy(() -> scraper.scrape(TEXT, null, in(Duration.ofMillis(100))));
		this.renderer.open();
		first.get(10, TimeUnit.SECONDS).body().release();
		assertThat(this.pool.chunksInUse()).isZero();
	}

	@Test
	void failedRenderingFailsItsWaitersAndTheNextScrapeWorks() throws Exception {
		Scraper scraper = scraper(2, Duration.ZERO);
		this.renderer.close();
		this.renderer.failNext = true;
		Future<Served> first = this.executor.submit(() -> scraper.scrape(TEXT, null, in(Duration.ofSeconds(30))));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.renderer.started.get() == 1);
		Future<Served> waiter = this.executor.submit(() -> scraper.scrape(TEXT, null, in(Duration.ofSeconds(30))));
		await().atMost(Duration.ofSeconds(10)).until(() -> scraper.scrapesWaiting() == 1);
		this.renderer.open();
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> first.get(10, TimeUnit.SECONDS))
			.withRootCauseInstanceOf(IllegalStateException.class);
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> waiter.get(10, TimeUnit.SECONDS))
			.withRootCauseInstanceOf(IllegalStateException.class);
		Served next = scraper.scrape(TEXT, null, in(Duration.ofSeconds(5)));
		assertThat(next.outcome()).isEqualTo(Outcome.OK);
		next.body().release();
		assertThat(this.pool.chunksInUse()).isZero();
	}

	@Test
	void cacheServesTheSameBodyWithinItsTimeToLive() throws Exception {
		Scraper scraper = scraper(2, Duration.ofMillis(500));
		Served first = scraper.scrape(TEXT, null, in(Duration.ofSeconds(5)));
		Served second = scraper.scrape(TEXT, null, in(Duration.ofSeconds(5)));
		assertThat(second.outcome()).isEqualTo(Outcome.CACHED);
		assertThat(second.body()).isSameAs(first.body());
		assertThat(this.renderer.started).hasValue(1);
		first.body().release();
		second.body().release();
		Thread.sleep(600);
		Served third = scraper.scrape(TEXT, null, in(Duration.ofSeconds(5)));
		assertThat(third.outcome()).isEqualTo(Outcome.OK);
		assertThat(this.renderer.started).hasValue(2);
		third.body().release();
		scraper.clearCache();
		assertThat(this.pool.chunksInUse()).isZero();
	}

	@Test
	void noCacheByDefault() throws Exception {
		Scraper scraper = scraper(2, Duration.ZERO);
		scraper.scrape(TEXT, null, in(Duration.ofSeconds(5))).body().release();
		Served second = scraper.scrape(TEXT, null, in(Duration.ofSeconds(5)));
		assertThat(second.outcome()).isEqualTo(Outcome.OK);
		second.body().release();
		assertThat(this.renderer.started).hasValue(2);
	}

	@ParameterizedTest
	@EnumSource(ContentCoding.class)
	void eachCodingIsMadeOnceAndSharedByReadersOfOneBody(ContentCoding coding) throws Exception {
		Scraper scraper = scraper(2, Duration.ZERO);
		Served scrape = scraper.scrape(TEXT, null, in(Duration.ofSeconds(5)));
		PooledBody first = scraper.encode(scrape.body(), coding);
		PooledBody second = scraper.encode(scrape.body(), coding);
		assertThat(second).isSameAs(first);
		assertThat(first.kind().coding()).isEqualTo(coding);
		ContentCoding other = (coding == ContentCoding.GZIP) ? ContentCoding.ZSTD : ContentCoding.GZIP;
		PooledBody otherCoding = scraper.encode(scrape.body(), other);
		assertThat(otherCoding).isNotSameAs(first);
		assertThat(otherCoding.kind().coding()).isEqualTo(other);
		first.release();
		second.release();
		otherCoding.release();
		assertThat(first.isReleased()).isFalse();
		scrape.body().release();
		assertThat(first.isReleased()).isTrue();
		assertThat(otherCoding.isReleased()).isTrue();
		assertThat(this.pool.chunksInUse()).isZero();
	}

	@Test
	void aScrapeWhoseCompressionFailsIsSentUncompressed() {
		BodyEncoder failing = new BodyEncoder() {

			@Override
			public ContentCoding coding() {
				return ContentCoding.ZSTD;
			}

			@Override
			public EncodedBody encode(PooledBody body, BodyKind kind, long expectedSize, boolean segmented,
					@Nullable EncodedBody previous, int @Nullable [] copyFrom) {
				throw new UnsatisfiedLinkError("no native library");
			}

			@Override
			public double minReusedShare() {
				return 0;
			}

			@Override
			public boolean compressesSegments() {
				return false;
			}

			@Override
			public long segmentsCompressed() {
				return 0;
			}

			@Override
			public long segmentsReused() {
				return 0;
			}

		};
		Scraper scraper = new Scraper(this.renderer, this.pool, new SizeHints(this.pool, 1024),
				List.of(new GzipEncoder(this.pool, 1), failing), 2, Duration.ZERO, 0, false);
		ScrapeResponder responder = new ScrapeResponder(scraper,
				new Deadlines(Duration.ofSeconds(5), Duration.ofSeconds(5)), SelfMetrics.NONE);
		ScrapeResponse response = responder.respond(new PendingScrape(scraper, TEXT, null), ContentCoding.ZSTD, null);
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.contentEncoding()).isNull();
		PooledBody body = response.body();
		assertThat(body).isNotNull();
		assertThat(new String(body.toByteArray(), StandardCharsets.UTF_8)).isEqualTo("body 1\n");
		responder.finish(response, false);
		assertThat(this.pool.chunksInUse()).isZero();
	}

	/**
	 * Writes "body N" for the N-th rendering; can be held at the start of a rendering,
	 * and made to fail.
	 */
	static final class GatedRenderer implements ExpositionRenderer {

		final AtomicInteger started = new AtomicInteger();

		volatile boolean failNext;

		private volatile CountDownLatch gate = new CountDownLatch(0);

		void close() {
			this.gate = new CountDownLatch(1);
		}

		void open() {
			this.gate.countDown();
		}

		@Override
		public void render(PrometheusOutputFormat format, @Nullable Set<String> includedNames, ChunkedOutput out) {
			int number = this.started.incrementAndGet();
			try {
				this.gate.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			if (this.failNext) {
				this.failNext = false;
				throw new IllegalStateException("Rendering failed");
			}
			out.writeAscii("body " + number + "\n");
		}

	}

}
