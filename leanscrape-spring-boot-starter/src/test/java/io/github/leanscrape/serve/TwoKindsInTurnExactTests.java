package io.github.leanscrape.serve;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.GZIPInputStream;

import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.support.OwnCodeTests;
import io.github.leanscrape.support.StarterContext;
import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two large kinds scraped in gzip (a Prometheus asking OpenMetrics and a VictoriaMetrics
 * asking text), in turn or one for a while then the other, with the counters changing
 * between scrapes in whole blocks, scattered, everywhere or not at all: every body is
 * Spring Boot's of the same moment, and every gzip body decodes to it. And with the
 * counters changing while bodies are rendered: once they stop, every body is Spring
 * Boot's again (a block recorded with other values than it was written from would be
 * copied stale).
 */
@Tag(OwnCodeTests.TAG)
class TwoKindsInTurnExactTests {

	private static final PrometheusOutputFormat[] FORMATS = { PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100,
			PrometheusOutputFormat.CONTENT_TYPE_004 };

	@Test
	void scrapedInTurnEveryBodyIsSpringBootsAndEveryGzipBodyDecodesToIt() throws Exception {
		run(1);
	}

	@Test
	void scrapedOneKindForAWhileThenTheOtherEveryBodyIsSpringBootsAndEveryGzipBodyDecodesToIt() throws Exception {
		run(15);
	}

	@Test
	void bodiesRenderedWhileCountersChangeLeaveNothingStaleOnceTheyStop() throws Exception {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		List<Counter> counters = counters(registry);
		StarterContext starter = StarterContext.start(registry, PrometheusConfig.DEFAULT, new Class<?>[0],
				"leanscrape.metrics.enabled=false");
		AtomicBoolean changing = new AtomicBoolean(true);
		Thread changer = new Thread(() -> {
			Random random = new Random(11);
			while (changing.get()) {
				counters.get(random.nextInt(counters.size())).increment();
			}
		});
		try {
			Scraper scraper = starter.bean(Scraper.class);
			PrometheusScrapeEndpoint boot = new PrometheusScrapeEndpoint(registry.getPrometheusRegistry(),
					new Properties());
			changer.start();
			for (int round = 0; round < 40; round++) {
				scrapeAndCheck(scraper, null, FORMATS[round % 2], round);
			}
			changing.set(false);
			changer.join();
			// Nothing changes now: a block copied from a body whose record noted other
			// values than it wrote would show here.
			for (int round = 40; round < 46; round++) {
				scrapeAndCheck(scraper, boot, FORMATS[round % 2], round);
			}
		}
		finally {
			changing.set(false);
			changer.join();
			starter.close();
		}
	}

	private static List<Counter> counters(PrometheusMeterRegistry registry) {
		List<Counter> counters = new ArrayList<>();
		for (int i = 0; i < 10_000; i++) {
			counters.add(Counter.builder("demo.requests." + (i / 100))
				.tag("method", (i % 2 == 0) ? "GET" : "POST")
				.tag("uri", "/api/v1/items/" + (i % 100))
				.register(registry));
		}
		return counters;
	}

	/**
	 * Scrape a kind in gzip; the gzip body must decode to the plain one, and the plain
	 * one be Spring Boot's where a reference is given.
	 */
	private static void scrapeAndCheck(Scraper scraper, @Nullable PrometheusScrapeEndpoint boot,
			PrometheusOutputFormat format, int round) throws Exception {
		Served served = scraper.scrape(format, null, System.nanoTime() + Duration.ofSeconds(10).toNanos());
		PooledBody plain = served.body().plain();
		PooledBody gzip = scraper.encode(served.body(), ContentCoding.GZIP);
		try {
			byte[] bytes = plain.toByteArray();
			if (boot != null) {
				assertThat(bytes).as("round %d, %s: Spring Boot's bytes", round, format)
					.isEqualTo(boot.scrape(format, null).getBody());
			}
			assertThat(gunzip(gzip.toByteArray())).as("round %d, %s: gzip decoded", round, format).isEqualTo(bytes);
		}
		finally {
			gzip.release();
			served.body().release();
		}
	}

	private static byte[] gunzip(byte[] gzip) throws IOException {
		try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
			return in.readAllBytes();
		}
	}

	private void run(int turnLength) throws Exception {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		List<Counter> counters = counters(registry);
		StarterContext starter = StarterContext.start(registry, PrometheusConfig.DEFAULT, new Class<?>[0],
				"leanscrape.metrics.enabled=false");
		try {
			Scraper scraper = starter.bean(Scraper.class);
			PrometheusScrapeEndpoint boot = new PrometheusScrapeEndpoint(registry.getPrometheusRegistry(),
					new Properties());
			Random random = new Random(7);
			for (int round = 0; round < 120; round++) {
				switch (round % 5) {
					case 1 -> {
						int from = random.nextInt(counters.size() - 300);
						for (int i = from; i < from + 300; i++) {
							counters.get(i).increment();
						}
					}
					case 2 -> {
						for (int i = 0; i < 30; i++) {
							counters.get(random.nextInt(counters.size())).increment();
						}
					}
					case 3 -> counters.forEach(Counter::increment);
					default -> {
						// no change
					}
				}
				scrapeAndCheck(scraper, boot, FORMATS[(round / turnLength) % 2], round);
			}
		}
		finally {
			starter.close();
		}
	}

}
