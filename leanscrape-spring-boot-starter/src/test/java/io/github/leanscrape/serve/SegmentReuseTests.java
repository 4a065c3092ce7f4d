package io.github.leanscrape.serve;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.zip.GZIPInputStream;

import com.github.luben.zstd.Zstd;
import io.github.leanscrape.compression.BodyEncoder;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.SizeHints;
import io.github.leanscrape.exposition.direct.DirectRenderer;
import io.github.leanscrape.support.DecodingTools;
import io.github.leanscrape.support.OwnCodeTests;
import io.github.leanscrape.support.StarterContext;
import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter's scrapes reuse what did not change, in every coding and in a rotation of
 * them: after a first scrape and one more to keep its segments, a scrape after no change
 * compresses no segment and copies every block of series, one after one counter changed
 * compresses one segment; three scrapers asking gzip, zstd (a frame per segment allowed)
 * and nothing in turn each reuse what did not change since their own last scrape, the
 * uncompressed one copying blocks; a first text scrape copies the blocks of the
 * OpenMetrics body; zstd by default is one frame; and every compressed body decodes to
 * the body of the same scrape.
 */
@Tag(OwnCodeTests.TAG)
class SegmentReuseTests {

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	private final List<Counter> counters = new ArrayList<>();

	private final StarterContext starter;

	private boolean closed;

	private final Scraper scraper;

	SegmentReuseTests() {
		for (int i = 0; i < 6000; i++) {
			this.counters.add(Counter.builder("requests." + (i / 50))
				.tag("method", (i % 2 == 0) ? "GET" : "POST")
				.tag("uri", "/api/v1/items/" + (i % 50))
				.register(this.registry));
		}
		this.starter = StarterContext.start(this.registry, PrometheusConfig.DEFAULT, new Class<?>[0],
				"leanscrape.metrics.enabled=false", "leanscrape.compression.zstd.frame-per-segment=true");
		this.scraper = this.starter.bean(Scraper.class);
	}

	@AfterEach
	void everyChunkGoesBack() {
		if (this.closed) {
			return;
		}
		this.scraper.forgetKept();
		assertThat(this.starter.bean(ChunkPool.class).chunksInUse()).isZero();
		this.starter.close();
	}

	@Test
	void aScrapeAfterNoChangeCompressesNoSegment() throws Exception {
		for (ContentCoding coding : ContentCoding.values()) {
			this.scraper.forgetKept();
			BodyEncoder encoder = encoder(coding);
			scrape(coding);
			scrape(coding);
			long compressed = encoder.segmentsCompressed();
			long reused = encoder.segmentsReused();
			scrape(coding);
			assertThat(encoder.segmentsCompressed()).as("%s segments compressed again", coding).isEqualTo(compressed);
			assertThat(encoder.segmentsReused() - reused).as("%s segments reused", coding).isGreaterThan(3);
		}
	}

	@Test
	void aScrapeAfterOneChangeCompressesOneSegment() throws Exception {
		BodyEncoder encoder = encoder(ContentCoding.GZIP);
		scrape(ContentCoding.GZIP);
		scrape(ContentCoding.GZIP);
		long compressed = encoder.segmentsCompressed();
		this.counters.get(3000).increment();
		scrape(ContentCoding.GZIP);
		assertThat(encoder.segmentsCompressed() - compressed).isEqualTo(1);
		// 9 becomes 10 somewhere: a longer line moves the segments after it.
		for (int i = 0; i < 10; i++) {
			this.counters.get(10).increment();
		}
		long before = encoder.segmentsCompressed();
		scrape(ContentCoding.GZIP);
		assertThat(encoder.segmentsCompressed() - before).isEqualTo(1);
	}

	@Test
	void threeScrapersInTurnEachReuseWhatDidNotChangeSinceTheirOwnLastScrape() throws Exception {
		DirectRenderer renderer = this.starter.bean(DirectRenderer.class);
		BodyEncoder gzip = encoder(ContentCoding.GZIP);
		BodyEncoder zstd = encoder(ContentCoding.ZSTD);
		List<@Nullable ContentCoding> turns = new ArrayList<>();
		turns.add(ContentCoding.GZIP);
		turns.add(ContentCoding.ZSTD);
		turns.add(null);
		for (int round = 0; round < 6; round++) {
			scrape(turns.get(round % 3));
		}
		long gzipCompressed = gzip.segmentsCompressed();
		long zstdCompressed = zstd.segmentsCompressed();
		long gzipReused = gzip.segmentsReused();
		long zstdReused = zstd.segmentsReused();
		long copied = renderer.copiedBlocks();
		for (int round = 6; round < 12; round++) {
			// One counter of one family changes between any two scrapes.
			this.counters.get(round * 500).increment();
			scrape(turns.get(round % 3));
		}
		// Three counters changed since a coding's last scrape: at most three segments.
		assertThat(gzip.segmentsCompressed() - gzipCompressed).isBetween(2L, 2L * 3);
		assertThat(zstd.segmentsCompressed() - zstdCompressed).isBetween(2L, 2L * 3);
		assertThat(gzip.segmentsReused() - gzipReused).isGreaterThan(2L * 3);
		assertThat(zstd.segmentsReused() - zstdReused).isGreaterThan(2L * 3);
		// Every scrape copies the blocks that did not change since the one before, the
		// uncompressed ones too: all but one block of 6,000 series.
		assertThat(renderer.copiedBlocks() - copied).isGreaterThanOrEqualTo(6 * 50L);
	}

	@Test
	void aTextScraperBesideAnOpenMetricsOneCopiesTheBlocksOfItsOwnBodyOnly() throws Exception {
		DirectRenderer renderer = this.starter.bean(DirectRenderer.class);
		scrape(ContentCoding.GZIP);
		scrape(ContentCoding.GZIP);
		long copied = renderer.copiedBlocks();
		// A first text scrape, as VictoriaMetrics or curl asks, has no body of its own
		// kind, and is not offered the OpenMetrics body.
		scrape(PrometheusOutputFormat.CONTENT_TYPE_004, null, ContentCoding.GZIP);
		assertThat(renderer.copiedBlocks()).isEqualTo(copied);
		this.counters.get(0).increment();
		// The next copies from its own body every block but the changed one.
		scrape(PrometheusOutputFormat.CONTENT_TYPE_004, null, ContentCoding.GZIP);
		assertThat(renderer.copiedBlocks() - copied).isEqualTo(6000 / 50 - 1);
		copied = renderer.copiedBlocks();
		// A name filter is a kind of its own, with nothing of the same names kept.
		scrape(PrometheusOutputFormat.CONTENT_TYPE_004, Set.of("requests_1_total", "requests_7_total"), null);
		assertThat(renderer.copiedBlocks()).isEqualTo(copied);
	}

	@Test
	void aPrometheusAndAVictoriaMetricsInTurnBothKeepTheirBodyInEveryCodingWithinTheLimit() throws Exception {
		everyChunkGoesBack();
		this.closed = true;
		// Bodies of 2.4 MB: the limit's rounding to whole chunks is small beside them.
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		List<Counter> counters = new ArrayList<>();
		for (int i = 0; i < 40_000; i++) {
			counters.add(Counter.builder("requests." + (i / 50))
				.tag("method", (i % 2 == 0) ? "GET" : "POST")
				.tag("uri", "/api/v1/items/" + (i % 50))
				.register(registry));
		}
		StarterContext starter = StarterContext.start(registry, PrometheusConfig.DEFAULT, new Class<?>[0],
				"leanscrape.metrics.enabled=false", "leanscrape.compression.zstd.frame-per-segment=true");
		try {
			Scraper scraper = starter.bean(Scraper.class);
			DirectRenderer renderer = starter.bean(DirectRenderer.class);
			ChunkPool pool = starter.bean(ChunkPool.class);
			BodyEncoder gzip = null;
			BodyEncoder zstd = null;
			for (BodyEncoder encoder : scraper.encoders()) {
				gzip = (encoder.coding() == ContentCoding.GZIP) ? encoder : gzip;
				zstd = (encoder.coding() == ContentCoding.ZSTD) ? encoder : zstd;
			}
			assertThat(gzip).isNotNull();
			assertThat(zstd).isNotNull();
			PrometheusOutputFormat text = PrometheusOutputFormat.CONTENT_TYPE_004;
			PrometheusOutputFormat openMetrics = PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100;
			for (int round = 0; round < 2; round++) {
				scrapeGzip(scraper, openMetrics);
				scrapeGzip(scraper, text);
			}
			for (int round = 0; round < 4; round++) {
				counters.get(round * 1000).increment();
				long copied = renderer.copiedBlocks();
				long compressed = gzip.segmentsCompressed();
				scrapeGzip(scraper, openMetrics);
				// Each kind copies from its own body, which its rendering gives back to
				// the pool as it goes past it: all but the block of the counter changed
				// since.
				assertThat(renderer.copiedBlocks() - copied).as("OpenMetrics blocks copied").isEqualTo(799);
				assertThat(gzip.segmentsCompressed() - compressed).isOne();
				copied = renderer.copiedBlocks();
				compressed = gzip.segmentsCompressed();
				scrapeGzip(scraper, text);
				assertThat(renderer.copiedBlocks() - copied).as("text blocks copied").isEqualTo(799);
				assertThat(gzip.segmentsCompressed() - compressed).isOne();
			}
			long body = starter.bean(SizeHints.class).largest();
			assertThat(scraper.keptChunks() * pool.chunkSize()).as("both bodies kept").isGreaterThan(2 * body);
			// Each scraper asks gzip, zstd and nothing in turn: both kinds keep their
			// body and their forms in both codings, and reuse them.
			List<@Nullable ContentCoding> codings = new ArrayList<>();
			codings.add(ContentCoding.GZIP);
			codings.add(ContentCoding.ZSTD);
			codings.add(null);
			long zstdReused = zstd.segmentsReused();
			for (int round = 0; round < 9; round++) {
				counters.get(round * 1000 + 7).increment();
				scrapeIn(scraper, openMetrics, codings.get(round % 3));
				scrapeIn(scraper, text, codings.get(round % 3));
			}
			assertThat(zstd.segmentsReused() - zstdReused).as("zstd segments reused").isGreaterThan(4L * 40);
			assertThat(scraper.keptChunks() * pool.chunkSize()).as("both bodies kept").isGreaterThan(2 * body);
			assertThat(pool.peakChunksInUse() * pool.chunkSize()).as("the most memory bodies held")
				.isLessThanOrEqualTo((long) (2.5 * body));
			scraper.forgetKept();
			assertThat(pool.chunksInUse()).isZero();
		}
		finally {
			starter.close();
		}
	}

	private static void scrapeGzip(Scraper scraper, PrometheusOutputFormat format) throws Exception {
		scrapeIn(scraper, format, ContentCoding.GZIP);
	}

	private static void scrapeIn(Scraper scraper, PrometheusOutputFormat format, @Nullable ContentCoding coding)
			throws Exception {
		Served served = scraper.scrape(format, null, System.nanoTime() + Duration.ofSeconds(10).toNanos());
		if (coding != null) {
			scraper.encode(served.body(), coding).release();
		}
		served.body().release();
	}

	@Test
	void zstdIsOneFrameByDefault() throws Exception {
		everyChunkGoesBack();
		this.closed = true;
		StarterContext plain = StarterContext.start(this.registry, PrometheusConfig.DEFAULT);
		try {
			Scraper scraper = plain.bean(Scraper.class);
			BodyEncoder zstd = null;
			for (BodyEncoder encoder : scraper.encoders()) {
				zstd = (encoder.coding() == ContentCoding.ZSTD) ? encoder : zstd;
			}
			assertThat(zstd).isNotNull();
			for (int i = 0; i < 4; i++) {
				Served served = scraper.scrape(PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100, null,
						System.nanoTime() + Duration.ofSeconds(10).toNanos());
				PooledBody encoded = scraper.encode(served.body(), ContentCoding.ZSTD);
				assertThat(DecodingTools.zstdFrames(encoded.toByteArray())).isOne();
				encoded.release();
				served.body().release();
			}
			assertThat(zstd.segmentsCompressed()).isEqualTo(4);
			assertThat(zstd.segmentsReused()).isZero();
			scraper.forgetKept();
		}
		finally {
			plain.close();
		}
	}

	private BodyEncoder encoder(ContentCoding coding) {
		for (BodyEncoder encoder : this.scraper.encoders()) {
			if (encoder.coding() == coding) {
				return encoder;
			}
		}
		throw new IllegalStateException("No encoder for " + coding);
	}

	/**
	 * Scrape in OpenMetrics, compress (unless the coding is {@code null}), and check that
	 * the compressed body decodes to the plain one.
	 */
	private void scrape(@Nullable ContentCoding coding) throws Exception {
		scrape(PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100, null, coding);
	}

	private void scrape(PrometheusOutputFormat format, @Nullable Set<String> names, @Nullable ContentCoding coding)
			throws Exception {
		Served served = this.scraper.scrape(format, names, System.nanoTime() + Duration.ofSeconds(10).toNanos());
		PooledBody plain = served.body().plain();
		if (coding == null) {
			served.body().release();
			return;
		}
		PooledBody encoded = this.scraper.encode(served.body(), coding);
		try {
			byte[] expected = plain.toByteArray();
			byte[] bytes = encoded.toByteArray();
			byte[] decoded;
			if (coding == ContentCoding.GZIP) {
				try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
					decoded = in.readAllBytes();
				}
			}
			else {
				decoded = Zstd.decompress(bytes, expected.length);
			}
			assertThat(decoded).isEqualTo(expected);
		}
		finally {
			encoded.release();
			served.body().release();
		}
	}

}
