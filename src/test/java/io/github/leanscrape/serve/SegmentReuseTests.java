package io.github.leanscrape.serve;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

import com.github.luben.zstd.Zstd;
import io.github.leanscrape.exposition.BodyEncoder;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.support.StarterContext;
import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter's scrapes compressed in segments that stay put while the meters do: a
 * scrape after no change compresses no segment, a scrape after one counter changed
 * compresses one, and every compressed body decodes to the body of the same scrape.
 */
class SegmentReuseTests {

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	private final List<Counter> counters = new ArrayList<>();

	private final StarterContext starter;

	private final Scraper scraper;

	SegmentReuseTests() {
		for (int i = 0; i < 6000; i++) {
			this.counters.add(Counter.builder("requests." + (i / 50))
				.tag("method", (i % 2 == 0) ? "GET" : "POST")
				.tag("uri", "/api/v1/items/" + (i % 50))
				.register(this.registry));
		}
		this.starter = StarterContext.start(this.registry, PrometheusConfig.DEFAULT);
		this.scraper = this.starter.bean(Scraper.class);
	}

	@AfterEach
	void everyChunkGoesBack() {
		this.scraper.forgetKeptSegments();
		assertThat(this.starter.bean(ChunkPool.class).leasedChunks()).isZero();
		this.starter.close();
	}

	@Test
	void aScrapeAfterNoChangeCompressesNoSegment() throws Exception {
		for (ContentCoding coding : ContentCoding.values()) {
			// Each coding on its own: the last body kept for another coding counts within
			// buffer.max-held-bodies, and at its default one kind in one coding keeps its
			// own.
			this.scraper.forgetKeptSegments();
			BodyEncoder encoder = encoder(coding);
			scrape(coding);
			long compressed = encoder.segmentsCompressed();
			long reused = encoder.segmentsReused();
			assertThat(compressed).as("%s segments of a first scrape", coding).isGreaterThan(3);
			scrape(coding);
			assertThat(encoder.segmentsCompressed()).as("%s segments compressed again", coding).isEqualTo(compressed);
			assertThat(encoder.segmentsReused() - reused).as("%s segments reused", coding).isEqualTo(compressed);
		}
	}

	@Test
	void aScrapeAfterOneChangeCompressesOneSegment() throws Exception {
		BodyEncoder encoder = encoder(ContentCoding.GZIP);
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

	private BodyEncoder encoder(ContentCoding coding) {
		for (BodyEncoder encoder : this.scraper.encoders()) {
			if (encoder.coding() == coding) {
				return encoder;
			}
		}
		throw new IllegalStateException("No encoder for " + coding);
	}

	/**
	 * Scrape in OpenMetrics, compress, and check that the compressed body decodes to the
	 * plain one.
	 */
	private void scrape(ContentCoding coding) throws Exception {
		Served served = this.scraper.scrape(PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100, null,
				System.nanoTime() + Duration.ofSeconds(10).toNanos());
		PooledBody plain = served.body();
		PooledBody encoded = this.scraper.encode(plain, coding);
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
			plain.release();
		}
	}

}
