package io.github.leanscrape.exposition;

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

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Coalescing, limits, deadlines and the cache of {@link Scraper}, with a renderer whose
 * progress the test controls.
 */
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

	private Scraper scraper(int maxConcurrentRenders, Duration timeToLive) {
		return Scraper.create(this.renderer, 1024, 1 << 20, 1, maxConcurrentRenders, timeToLive, 0);
	}

	private static long in(Duration duration) {
		return System.nanoTime() + duration.toNanos();
	}

	@Test
	void overlappingScrapesOfOneKindShareOneRendering() throws Exception {
		Scraper scraper = scraper(2, Duration.ZERO);
		this.renderer.close();
		List<Future<Scrape>> scrapes = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			scrapes.add(this.executor.submit(() -> scraper.scrape(TEXT, null, in(Duration.ofSeconds(30)))));
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> this.renderer.started.get() == 1);
		await().atMost(Duration.ofSeconds(10)).until(() -> scraper.scrapesWaiting() == 19);
		this.renderer.open();
		int rendered = 0;
		int coalesced = 0;
		List<ScrapeBody> bodies = new ArrayList<>();
		for (Future<Scrape> future : scrapes) {
			Scrape scrape = future.get(10, TimeUnit.SECONDS);
			bodies.add(scrape.body());
			assertThat(new String(scrape.body().toByteArray(), StandardCharsets.UTF_8)).isEqualTo("body 1\n");
			if (scrape.outcome() == ScrapeOutcome.OK) {
				rendered++;
			}
			else if (scrape.outcome() == ScrapeOutcome.COALESCED) {
				coalesced++;
			}
		}
		assertThat(this.renderer.started).hasValue(1);
		assertThat(rendered).isOne();
		assertThat(coalesced).isEqualTo(19);
		bodies.forEach(ScrapeBody::release);
		assertThat(scraper.pool().leasedChunks()).isZero();
	}

	@Test
	void differentKindsRenderSeparately() throws Exception {
		Scraper scraper = scraper(4, Duration.ZERO);
		Scrape text = scraper.scrape(TEXT, null, in(Duration.ofSeconds(5)));
		Scrape filtered = scraper.scrape(TEXT, Set.of("a"), in(Duration.ofSeconds(5)));
		Scrape openMetrics = scraper.scrape(OPENMETRICS, null, in(Duration.ofSeconds(5)));
		assertThat(this.renderer.started).hasValue(3);
		text.body().release();
		filtered.body().release();
		openMetrics.body().release();
		assertThat(scraper.pool().leasedChunks()).isZero();
	}

	@Test
	void scrapeThatCannotStartRenderingBeforeItsDeadlineIsRejected() throws Exception {
		Scraper scraper = scraper(1, Duration.ZERO);
		this.renderer.close();
		Future<Scrape> blocking = this.executor.submit(() -> scraper.scrape(TEXT, null, in(Duration.ofSeconds(30))));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.renderer.started.get() == 1);
		long start = System.nanoTime();
		assertThatExceptionOfType(ScrapeRejectedException.class)
			.isThrownBy(() -> scraper.scrape(OPENMETRICS, null, in(Duration.ofMillis(200))))
			.withMessageContaining("rendering slots");
		assertThat(System.nanoTime() - start).isLessThan(Duration.ofSeconds(5).toNanos());
		this.renderer.open();
		blocking.get(10, TimeUnit.SECONDS).body().release();
		Scrape after = scraper.scrape(OPENMETRICS, null, in(Duration.ofSeconds(5)));
		assertThat(after.outcome()).isEqualTo(ScrapeOutcome.OK);
		after.body().release();
		assertThat(scraper.pool().leasedChunks()).isZero();
	}

	@Test
	void scrapeWaitingForASharedRenderingPastItsDeadlineIsRejected() throws Exception {
		Scraper scraper = scraper(2, Duration.ZERO);
		this.renderer.close();
		Future<Scrape> first = this.executor.submit(() -> scraper.scrape(TEXT, null, in(Duration.ofSeconds(30))));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.renderer.started.get() == 1);
		assertThatExceptionOfType(ScrapeRejectedException.class)
			.isThrownBy(() -> scraper.scrape(TEXT, null, in(Duration.ofMillis(200))))
			.withMessageContaining("did not finish");
		this.renderer.open();
		first.get(10, TimeUnit.SECONDS).body().release();
		assertThat(scraper.pool().leasedChunks()).isZero();
	}

	@Test
	void aJoinedScrapeGetsTheBodyEvenAfterEveryoneElseReleasedIt() throws Exception {
		Scraper scraper = scraper(2, Duration.ZERO);
		this.renderer.close();
		Future<Scrape> first = this.executor.submit(() -> scraper.scrape(TEXT, null, in(Duration.ofSeconds(30))));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.renderer.started.get() == 1);
		Future<Scrape> waiter = this.executor.submit(() -> scraper.scrape(TEXT, null, in(Duration.ofSeconds(30))));
		await().atMost(Duration.ofSeconds(10)).until(() -> scraper.scrapesWaiting() == 1);
		this.renderer.open();
		// The rendering scrape sends and releases its body before the waiter looks at it.
		first.get(10, TimeUnit.SECONDS).body().release();
		Scrape joined = waiter.get(10, TimeUnit.SECONDS);
		assertThat(joined.outcome()).isEqualTo(ScrapeOutcome.COALESCED);
		assertThat(new String(joined.body().toByteArray(), StandardCharsets.UTF_8)).isEqualTo("body 1\n");
		assertThat(this.renderer.started).hasValue(1);
		joined.body().release();
		assertThat(scraper.pool().leasedChunks()).isZero();
	}

	@Test
	void aJoinedScrapeThatGivesUpLeavesNothingLeased() throws Exception {
		Scraper scraper = scraper(2, Duration.ZERO);
		this.renderer.close();
		Future<Scrape> first = this.executor.submit(() -> scraper.scrape(TEXT, null, in(Duration.ofSeconds(30))));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.renderer.started.get() == 1);
		assertThatExceptionOfType(ScrapeRejectedException.class)
			.isThrownBy(() -> scraper.scrape(TEXT, null, in(Duration.ofMillis(100))));
		this.renderer.open();
		first.get(10, TimeUnit.SECONDS).body().release();
		assertThat(scraper.pool().leasedChunks()).isZero();
	}

	@Test
	void failedRenderingFailsItsWaitersAndTheNextScrapeWorks() throws Exception {
		Scraper scraper = scraper(2, Duration.ZERO);
		this.renderer.close();
		this.renderer.failNext = true;
		Future<Scrape> first = this.executor.submit(() -> scraper.scrape(TEXT, null, in(Duration.ofSeconds(30))));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.renderer.started.get() == 1);
		Future<Scrape> waiter = this.executor.submit(() -> scraper.scrape(TEXT, null, in(Duration.ofSeconds(30))));
		await().atMost(Duration.ofSeconds(10)).until(() -> scraper.scrapesWaiting() == 1);
		this.renderer.open();
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> first.get(10, TimeUnit.SECONDS))
			.withRootCauseInstanceOf(IllegalStateException.class);
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> waiter.get(10, TimeUnit.SECONDS))
			.withRootCauseInstanceOf(IllegalStateException.class);
		Scrape next = scraper.scrape(TEXT, null, in(Duration.ofSeconds(5)));
		assertThat(next.outcome()).isEqualTo(ScrapeOutcome.OK);
		next.body().release();
		assertThat(scraper.pool().leasedChunks()).isZero();
	}

	@Test
	void cacheServesTheSameBodyWithinItsTimeToLive() throws Exception {
		Scraper scraper = scraper(2, Duration.ofMillis(500));
		Scrape first = scraper.scrape(TEXT, null, in(Duration.ofSeconds(5)));
		Scrape second = scraper.scrape(TEXT, null, in(Duration.ofSeconds(5)));
		assertThat(second.outcome()).isEqualTo(ScrapeOutcome.CACHED);
		assertThat(second.body()).isSameAs(first.body());
		assertThat(this.renderer.started).hasValue(1);
		first.body().release();
		second.body().release();
		Thread.sleep(600);
		Scrape third = scraper.scrape(TEXT, null, in(Duration.ofSeconds(5)));
		assertThat(third.outcome()).isEqualTo(ScrapeOutcome.OK);
		assertThat(this.renderer.started).hasValue(2);
		third.body().release();
		scraper.clearCache();
		assertThat(scraper.pool().leasedChunks()).isZero();
	}

	@Test
	void noCacheByDefault() throws Exception {
		Scraper scraper = scraper(2, Duration.ZERO);
		scraper.scrape(TEXT, null, in(Duration.ofSeconds(5))).body().release();
		Scrape second = scraper.scrape(TEXT, null, in(Duration.ofSeconds(5)));
		assertThat(second.outcome()).isEqualTo(ScrapeOutcome.OK);
		second.body().release();
		assertThat(this.renderer.started).hasValue(2);
	}

	@Test
	void gzipIsMadeOnceAndSharedByReadersOfOneBody() throws Exception {
		Scraper scraper = scraper(2, Duration.ZERO);
		Scrape scrape = scraper.scrape(TEXT, null, in(Duration.ofSeconds(5)));
		ScrapeBody first = scraper.gzip(scrape.body());
		ScrapeBody second = scraper.gzip(scrape.body());
		assertThat(second).isSameAs(first);
		first.release();
		second.release();
		assertThat(first.isReleased()).isFalse();
		scrape.body().release();
		assertThat(first.isReleased()).isTrue();
		assertThat(scraper.pool().leasedChunks()).isZero();
	}

	/**
	 * Writes "body N" for the N-th rendering; can be held at the start of a rendering, and
	 * made to fail.
	 */
	static final class GatedRenderer implements ScrapeRenderer {

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
		public void render(PrometheusOutputFormat format, @Nullable Set<String> includedNames, ScrapeBuffer out) {
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
