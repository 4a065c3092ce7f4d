package io.github.leanscrape.exposition;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for the bound that {@link Scraper} puts on the memory held by scrape bodies.
 *
 * @author leanscrape
 */
class ScraperMemoryLimitTests {

	private static final int CHUNK = 1024;

	/**
	 * Four chunks of output for every scrape, whatever its kind.
	 */
	private static final ScrapeRenderer FOUR_CHUNKS = (format, includedNames, out) -> {
		for (int i = 0; i < 4 * CHUNK; i++) {
			out.write('x');
		}
	};

	private static final PrometheusOutputFormat TEXT = PrometheusOutputFormat.CONTENT_TYPE_004;

	@Test
	void renderingWaitsForHeldBodiesAndIsRejectedAtItsDeadline() throws Exception {
		Scraper scraper = scraper(2.5);
		ScrapeBody first = scraper.scrape(TEXT, null, deadline(Duration.ofSeconds(10))).body();
		ScrapeBody second = scraper.scrape(TEXT, Set.of("other"), deadline(Duration.ofSeconds(10))).body();
		// Two bodies of four chunks held, four more expected: more than 2.5 bodies.
		assertThatExceptionOfType(ScrapeRejectedException.class)
			.isThrownBy(() -> scraper.scrape(TEXT, null, deadline(Duration.ofMillis(100))));
		assertThat(scraper.pool().reservedChunks()).isZero();
		first.release();
		ScrapeBody third = scraper.scrape(TEXT, null, deadline(Duration.ofSeconds(10))).body();
		assertThat(scraper.pool().peakLeasedChunks()).isLessThanOrEqualTo(10);
		second.release();
		third.release();
		assertThat(scraper.pool().leasedChunks()).isZero();
	}

	@Test
	void noLimitWhenTurnedOff() throws Exception {
		Scraper scraper = scraper(0);
		ScrapeBody first = scraper.scrape(TEXT, null, deadline(Duration.ofSeconds(10))).body();
		ScrapeBody second = scraper.scrape(TEXT, Set.of("other"), deadline(Duration.ofSeconds(10))).body();
		ScrapeBody third = scraper.scrape(TEXT, null, deadline(Duration.ofMillis(100))).body();
		assertThat(scraper.pool().leasedChunks()).isEqualTo(12);
		first.release();
		second.release();
		third.release();
	}

	private static Scraper scraper(double maxHeldBodies) {
		ChunkPool pool = new ChunkPool(CHUNK, 0);
		// No headroom: a scrape is expected to need what the last one of its kind did.
		return new Scraper(FOUR_CHUNKS, pool, new ScrapeSizeHints(pool, 0), null, 2, Duration.ZERO, maxHeldBodies);
	}

	private static long deadline(Duration timeout) {
		return System.nanoTime() + TimeUnit.NANOSECONDS.convert(timeout);
	}

}
