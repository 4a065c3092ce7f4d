package io.github.leanscrape.exposition;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPInputStream;

import io.github.leanscrape.support.DecodingTools;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bodies compressed segment by segment, the unchanged segments copied compressed from the
 * last body of the same kind: over many bodies with changes between them (none, all,
 * clustered, scattered, segments that grow and shrink, segments added and removed), every
 * compressed body decodes to its plain body with the JDK's {@link GZIPInputStream}, the
 * {@code gzip} tool and the {@code zstd} tool; a body with no change compresses no
 * segment, and every chunk goes back to the pool.
 */
class SegmentedCompressionTests {

	private static final BodyKind OPENMETRICS = BodyKind.of(PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100, null);

	private static final BodyKind TEXT = BodyKind.of(PrometheusOutputFormat.CONTENT_TYPE_004, null);

	private final ChunkPool pool = new ChunkPool(4096, 1 << 20);

	@AfterEach
	void everyChunkGoesBackToThePool() {
		assertThat(this.pool.leasedChunks()).isZero();
	}

	@Test
	void aBodyWithNoChangeCompressesNoSegment() throws IOException {
		try (GzipEncoder encoder = new GzipEncoder(this.pool, 1)) {
			List<byte[]> segments = segments(new Random(1), 40);
			assertThat(gunzip(encode(encoder, OPENMETRICS, segments))).isEqualTo(join(segments));
			assertThat(encoder.segmentsCompressed()).isEqualTo(40);
			assertThat(encoder.segmentsReused()).isZero();
			assertThat(gunzip(encode(encoder, OPENMETRICS, segments))).isEqualTo(join(segments));
			assertThat(encoder.segmentsCompressed()).isEqualTo(40);
			assertThat(encoder.segmentsReused()).isEqualTo(40);
		}
	}

	@Test
	void onlyTheChangedSegmentsAreCompressed() throws IOException {
		try (GzipEncoder encoder = new GzipEncoder(this.pool, 1)) {
			List<byte[]> segments = segments(new Random(2), 30);
			encode(encoder, OPENMETRICS, segments);
			// A segment that grows moves every segment after it: they are reused all the
			// same.
			segments.set(3, (new String(segments.get(3), StandardCharsets.US_ASCII) + "x 1\n")
				.getBytes(StandardCharsets.US_ASCII));
			segments.set(17, segment(new Random(99)));
			assertThat(gunzip(encode(encoder, OPENMETRICS, segments))).isEqualTo(join(segments));
			assertThat(encoder.segmentsCompressed()).isEqualTo(30 + 2);
			assertThat(encoder.segmentsReused()).isEqualTo(28);
		}
	}

	@Test
	void eachKindIsComparedWithItsOwnLastBody() throws IOException {
		try (GzipEncoder encoder = new GzipEncoder(this.pool, 1)) {
			List<byte[]> openMetrics = segments(new Random(3), 10);
			List<byte[]> text = segments(new Random(4), 10);
			encode(encoder, OPENMETRICS, openMetrics);
			encode(encoder, TEXT, text);
			assertThat(gunzip(encode(encoder, OPENMETRICS, openMetrics))).isEqualTo(join(openMetrics));
			assertThat(gunzip(encode(encoder, TEXT, text))).isEqualTo(join(text));
			assertThat(encoder.segmentsReused()).isEqualTo(20);
		}
	}

	@Test
	void atMostFourKindsAreKeptTheLeastRecentlyKeptDroppedFirst() throws IOException {
		try (GzipEncoder encoder = new GzipEncoder(this.pool, 1)) {
			List<byte[]> segments = segments(new Random(10), 3);
			for (int i = 0; i < 10; i++) {
				assertThat(gunzip(encode(encoder, filtered(i), segments))).isEqualTo(join(segments));
				assertThat(keptKinds(encoder)).hasSizeLessThanOrEqualTo(4);
			}
			assertThat(keptKinds(encoder)).containsExactly(filtered(6), filtered(7), filtered(8), filtered(9));
		}
	}

	private static BodyKind filtered(int i) {
		return BodyKind.of(PrometheusOutputFormat.CONTENT_TYPE_004, java.util.Set.of("f" + i));
	}

	private static List<BodyKind> keptKinds(BodyEncoder encoder) {
		List<BodyKind> kinds = new ArrayList<>();
		encoder.keptBodies((body) -> kinds.add(body.kind()));
		return kinds;
	}

	@Test
	void withoutReuseEverySegmentIsCompressedAndNothingIsKept() throws IOException {
		try (GzipEncoder encoder = new GzipEncoder(this.pool, 1, false)) {
			List<byte[]> segments = segments(new Random(5), 8);
			encode(encoder, OPENMETRICS, segments);
			assertThat(gunzip(encode(encoder, OPENMETRICS, segments))).isEqualTo(join(segments));
			assertThat(encoder.segmentsReused()).isZero();
			assertThat(this.pool.leasedChunks()).isZero();
		}
	}

	@Test
	void forgottenSegmentsAreCompressedAgain() throws IOException {
		try (GzipEncoder encoder = new GzipEncoder(this.pool, 1)) {
			List<byte[]> segments = segments(new Random(6), 8);
			encode(encoder, OPENMETRICS, segments);
			encoder.forgetSegments();
			assertThat(this.pool.leasedChunks()).isZero();
			assertThat(gunzip(encode(encoder, OPENMETRICS, segments))).isEqualTo(join(segments));
			assertThat(encoder.segmentsReused()).isZero();
		}
	}

	@Test
	void randomChangesDecodeWithTheJdkAndTheGzipTool() throws Exception {
		Random random = new Random(7);
		try (GzipEncoder encoder = new GzipEncoder(this.pool, 1)) {
			List<byte[]> segments = segments(random, 25);
			for (int scrape = 0; scrape < 40; scrape++) {
				change(random, segments, scrape);
				byte[] gzip = encode(encoder, OPENMETRICS, segments);
				assertThat(gunzip(gzip)).as("scrape %d", scrape).isEqualTo(join(segments));
				if (scrape % 8 == 0) {
					assertThat(DecodingTools.gzip(gzip)).as("scrape %d, gzip -dc", scrape).isEqualTo(join(segments));
				}
			}
			assertThat(encoder.segmentsReused()).isPositive();
		}
	}

	@Test
	void randomChangesDecodeWithTheZstdTool() {
		Random random = new Random(8);
		try (ZstdEncoder encoder = new ZstdEncoder(this.pool, 1)) {
			List<byte[]> segments = segments(random, 12);
			for (int scrape = 0; scrape < 12; scrape++) {
				change(random, segments, scrape);
				assertThat(DecodingTools.zstd(encode(encoder, OPENMETRICS, segments))).as("scrape %d", scrape)
					.isEqualTo(join(segments));
			}
			assertThat(encoder.segmentsReused()).isPositive();
		}
	}

	@Test
	void zstdCompressesABodyWholeWhenLittleOfItIsAsItWas() {
		try (ZstdEncoder encoder = new ZstdEncoder(this.pool, 1)) {
			List<byte[]> segments = segments(new Random(11), 12);
			encode(encoder, OPENMETRICS, segments);
			assertThat(encoder.segmentsCompressed()).as("the first body, a frame per segment").isEqualTo(12);
			segments.replaceAll((segment) -> segment(new Random(segment.length)));
			assertThat(DecodingTools.zstd(encode(encoder, OPENMETRICS, segments))).isEqualTo(join(segments));
			assertThat(encoder.segmentsCompressed()).as("everything changed: one frame").isEqualTo(12 + 1);
			segments.set(5, segment(new Random(77)));
			assertThat(DecodingTools.zstd(encode(encoder, OPENMETRICS, segments))).isEqualTo(join(segments));
			assertThat(encoder.segmentsCompressed()).as("one segment changed: a frame per segment, none kept")
				.isEqualTo(12 + 1 + 12);
			assertThat(encoder.segmentsReused()).isZero();
			segments.set(5, segment(new Random(78)));
			assertThat(DecodingTools.zstd(encode(encoder, OPENMETRICS, segments))).isEqualTo(join(segments));
			assertThat(encoder.segmentsCompressed()).as("one segment changed again").isEqualTo(12 + 1 + 12 + 1);
			assertThat(encoder.segmentsReused()).isEqualTo(11);
		}
	}

	@Test
	void anEmptyBodyAndOneWithoutSegmentsDecode() throws IOException {
		try (GzipEncoder gzip = new GzipEncoder(this.pool, 1); ZstdEncoder zstd = new ZstdEncoder(this.pool, 1)) {
			for (int i = 0; i < 2; i++) {
				assertThat(gunzip(encode(gzip, OPENMETRICS, List.of()))).isEmpty();
				assertThat(DecodingTools.zstd(encode(zstd, OPENMETRICS, List.of()))).isEmpty();
				byte[] whole = join(segments(new Random(9), 5));
				assertThat(gunzip(encode(gzip, TEXT, List.of(whole)))).isEqualTo(whole);
				assertThat(DecodingTools.zstd(encode(zstd, TEXT, List.of(whole)))).isEqualTo(whole);
			}
		}
	}

	/**
	 * Change the segments as scrapes see them change: nothing, everything, a block, a
	 * scattered few, one grown or shrunk, one added or removed.
	 */
	private static void change(Random random, List<byte[]> segments, int scrape) {
		switch (scrape % 6) {
			case 0 -> {
				// no change
			}
			case 1 -> segments.replaceAll((segment) -> segment(random));
			case 2 -> {
				int from = random.nextInt(segments.size());
				for (int i = from; i < Math.min(segments.size(), from + 3); i++) {
					segments.set(i, segment(random));
				}
			}
			case 3 -> {
				for (int i = 0; i < 3; i++) {
					segments.set(random.nextInt(segments.size()), segment(random));
				}
			}
			case 4 -> {
				int i = random.nextInt(segments.size());
				byte[] segment = segments.get(i);
				segments.set(i,
						random.nextBoolean() ? join(List.of(segment, "y 2\n".getBytes(StandardCharsets.US_ASCII)))
								: java.util.Arrays.copyOf(segment, segment.length / 2));
			}
			default -> {
				if (random.nextBoolean() && segments.size() > 2) {
					segments.remove(random.nextInt(segments.size()));
				}
				else {
					segments.add(random.nextInt(segments.size()), segment(random));
				}
			}
		}
	}

	private byte[] encode(BodyEncoder encoder, BodyKind kind, List<byte[]> segments) {
		ChunkedOutput output = new ChunkedOutput(this.pool, kind, 0);
		for (byte[] segment : segments) {
			output.write(segment);
			output.endSegment(1);
		}
		PooledBody body = output.toBody();
		PooledBody encoded = encoder.encode(body, kind.encoded(encoder.coding()), 0);
		byte[] bytes = encoded.toByteArray();
		encoded.release();
		body.release();
		return bytes;
	}

	private static List<byte[]> segments(Random random, int count) {
		List<byte[]> segments = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			segments.add(segment(random));
		}
		return segments;
	}

	/**
	 * A segment of series lines, some longer than a chunk of the pool, some short.
	 */
	private static byte[] segment(Random random) {
		StringBuilder text = new StringBuilder();
		int lines = 1 + random.nextInt(random.nextBoolean() ? 8 : 400);
		for (int i = 0; i < lines; i++) {
			text.append("http_server_requests_seconds_count{method=\"GET\",uri=\"/api/")
				.append(random.nextInt(50))
				.append("\"} ")
				.append(random.nextInt(1000))
				.append('\n');
		}
		return text.toString().getBytes(StandardCharsets.US_ASCII);
	}

	private static byte[] join(List<byte[]> segments) {
		ByteArrayOutputStream joined = new ByteArrayOutputStream();
		for (byte[] segment : segments) {
			joined.writeBytes(segment);
		}
		return joined.toByteArray();
	}

	private static byte[] gunzip(byte[] gzip) throws IOException {
		try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
			return in.readAllBytes();
		}
	}

}
