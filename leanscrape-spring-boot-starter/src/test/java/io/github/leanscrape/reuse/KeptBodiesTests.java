package io.github.leanscrape.reuse;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;

import io.github.leanscrape.compression.BodyEncoder;
import io.github.leanscrape.compression.EncodedBody;
import io.github.leanscrape.compression.GzipEncoder;
import io.github.leanscrape.compression.ZstdEncoder;
import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.ExpositionRenderer;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.PooledBodyRenderer;
import io.github.leanscrape.exposition.RenderInputs;
import io.github.leanscrape.exposition.SizeHints;
import io.github.leanscrape.reuse.KeptBodies.RenderLease;
import io.github.leanscrape.support.DecodingTools;
import io.github.leanscrape.support.OwnCodeTests;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What {@link KeptBodies} keeps between scrapes, as the scraper uses it: bodies
 * compressed segment by segment, the unchanged segments copied compressed from the last
 * body of the same kind in the same coding, however many scrapes of other codings came
 * between. Over many bodies with changes between them (none, all, clustered, scattered,
 * segments that grow and shrink, segments added and removed), every compressed body
 * decodes to its plain body with the JDK's {@link GZIPInputStream}, the {@code gzip} tool
 * and the {@code zstd} tool; the counts of segments compressed and reused are exactly
 * those expected; and every chunk goes back to the pool.
 */
@Tag(OwnCodeTests.TAG)
class KeptBodiesTests {

	private static final BodyKind OPENMETRICS = BodyKind.of(PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100, null);

	private static final BodyKind TEXT = BodyKind.of(PrometheusOutputFormat.CONTENT_TYPE_004, null);

	private final ChunkPool pool = new ChunkPool(4096, 1 << 20);

	// Its headroom keeps the pool retaining as much as these tests' bodies take.
	private final SizeHints sizeHints = new SizeHints(this.pool, 1 << 20);

	private final AtomicLong clock = new AtomicLong();

	private KeptBodies kept = new KeptBodies(true, this.clock::get);

	@AfterEach
	void everyChunkGoesBackToThePool() {
		this.kept.forgetAll();
		assertThat(this.pool.chunksInUse()).isZero();
	}

	@Test
	void aBodyWithNoChangeCompressesNoSegment() throws IOException {
		try (GzipEncoder encoder = new GzipEncoder(this.pool, 1)) {
			List<byte[]> segments = segments(new Random(1), 40);
			assertThat(gunzip(scrape(encoder, OPENMETRICS, segments))).isEqualTo(join(segments));
			assertThat(encoder.segmentsCompressed()).as("a first body: whole").isEqualTo(1);
			assertThat(gunzip(scrape(encoder, OPENMETRICS, segments))).isEqualTo(join(segments));
			assertThat(encoder.segmentsCompressed()).as("as it was: segment by segment, for the next")
				.isEqualTo(1 + 40);
			assertThat(encoder.segmentsReused()).isZero();
			assertThat(gunzip(scrape(encoder, OPENMETRICS, segments))).isEqualTo(join(segments));
			assertThat(encoder.segmentsCompressed()).isEqualTo(1 + 40);
			assertThat(encoder.segmentsReused()).isEqualTo(40);
		}
	}

	@Test
	void onlyTheChangedSegmentsAreCompressed() throws IOException {
		try (GzipEncoder encoder = new GzipEncoder(this.pool, 1)) {
			List<byte[]> segments = segments(new Random(2), 30);
			scrape(encoder, OPENMETRICS, segments);
			scrape(encoder, OPENMETRICS, segments);
			long compressed = encoder.segmentsCompressed();
			// A segment that grows moves every segment after it: they are reused all the
			// same.
			segments.set(3, (new String(segments.get(3), StandardCharsets.US_ASCII) + "x 1\n")
				.getBytes(StandardCharsets.US_ASCII));
			segments.set(17, segment(new Random(99)));
			assertThat(gunzip(scrape(encoder, OPENMETRICS, segments))).isEqualTo(join(segments));
			assertThat(encoder.segmentsCompressed()).isEqualTo(compressed + 2);
			assertThat(encoder.segmentsReused()).isEqualTo(28);
		}
	}

	@Test
	void segmentsAroundOneAddedOrRemovedAreReused() throws IOException {
		try (GzipEncoder encoder = new GzipEncoder(this.pool, 1)) {
			List<byte[]> segments = segments(new Random(12), 30);
			scrape(encoder, OPENMETRICS, segments);
			scrape(encoder, OPENMETRICS, segments);
			long compressed = encoder.segmentsCompressed();
			segments.add(11, segment(new Random(100)));
			assertThat(gunzip(scrape(encoder, OPENMETRICS, segments))).isEqualTo(join(segments));
			assertThat(encoder.segmentsCompressed()).as("the one added").isEqualTo(compressed + 1);
			assertThat(encoder.segmentsReused()).as("every other, before and after it").isEqualTo(30);
			segments.remove(20);
			assertThat(gunzip(scrape(encoder, OPENMETRICS, segments))).isEqualTo(join(segments));
			assertThat(encoder.segmentsCompressed()).isEqualTo(compressed + 1);
			assertThat(encoder.segmentsReused()).isEqualTo(30 + 30);
		}
	}

	@Test
	void eachCodingReusesWhatDidNotChangeSinceItsOwnLastScrape() throws IOException {
		try (GzipEncoder gzip = new GzipEncoder(this.pool, 1); ZstdEncoder zstd = new ZstdEncoder(this.pool, 1, true)) {
			List<byte[]> segments = segments(new Random(13), 30);
			List<@Nullable BodyEncoder> codings = new ArrayList<>();
			codings.add(gzip);
			codings.add(zstd);
			codings.add(null);
			// Twice round as they are: each coding has its segments kept.
			// Twice round as they are, then once changing: each coding has its segments
			// kept.
			for (int round = 0; round < 9; round++) {
				if (round >= 6) {
					segments.set(round, segment(new Random(1000 + round)));
				}
				scrape(codings.get(round % 3), OPENMETRICS, segments);
			}
			long gzipCompressed = gzip.segmentsCompressed();
			long zstdCompressed = zstd.segmentsCompressed();
			long gzipReused = gzip.segmentsReused();
			long zstdReused = zstd.segmentsReused();
			for (int round = 9; round < 18; round++) {
				// One segment changes between any two scrapes: three since a coding's
				// last.
				segments.set(round, segment(new Random(1000 + round)));
				BodyEncoder encoder = codings.get(round % 3);
				byte[] body = scrape(encoder, OPENMETRICS, segments);
				if (encoder == gzip) {
					assertThat(gunzip(body)).isEqualTo(join(segments));
				}
				else if (encoder == zstd) {
					assertThat(DecodingTools.zstd(body)).isEqualTo(join(segments));
				}
				else {
					assertThat(body).isEqualTo(join(segments));
				}
			}
			assertThat(gzip.segmentsCompressed() - gzipCompressed).isEqualTo(3 * 3);
			assertThat(zstd.segmentsCompressed() - zstdCompressed).isEqualTo(3 * 3);
			assertThat(gzip.segmentsReused() - gzipReused).isEqualTo(3 * 27);
			assertThat(zstd.segmentsReused() - zstdReused).isEqualTo(3 * 27);
			assertThat(this.kept.keptKinds()).isOne();
		}
	}

	@Test
	void eachKindIsComparedWithItsOwnLastBody() throws IOException {
		try (GzipEncoder encoder = new GzipEncoder(this.pool, 1)) {
			List<byte[]> openMetrics = segments(new Random(3), 10);
			List<byte[]> text = segments(new Random(4), 10);
			for (int i = 0; i < 2; i++) {
				scrape(encoder, OPENMETRICS, openMetrics);
				scrape(encoder, TEXT, text);
			}
			assertThat(gunzip(scrape(encoder, OPENMETRICS, openMetrics))).isEqualTo(join(openMetrics));
			assertThat(gunzip(scrape(encoder, TEXT, text))).isEqualTo(join(text));
			assertThat(encoder.segmentsReused()).isEqualTo(20);
		}
	}

	@Test
	void aTextKindIsOfferedOnlyItsOwnBodyNotTheOtherTextFormats() {
		List<byte[]> segments = segments(new Random(19), 12);
		scrape(null, OPENMETRICS, segments);
		try (RenderLease lease = this.kept.lease(TEXT)) {
			assertThat(lease.start().copyFrom()).as("no text body kept").isNull();
		}
	}

	@Test
	void atMostFourKindsAreKept() throws IOException {
		try (GzipEncoder encoder = new GzipEncoder(this.pool, 1)) {
			List<byte[]> segments = segments(new Random(10), 3);
			for (int i = 0; i < 10; i++) {
				assertThat(gunzip(scrape(encoder, filtered(i), segments))).isEqualTo(join(segments));
				assertThat(this.kept.keptKinds()).isLessThanOrEqualTo(4);
			}
			assertThat(this.kept.keptKinds()).isEqualTo(4);
		}
	}

	@Test
	void aFifthKindDoesNotEvictAKindWhoseBodyItsRenderingTook() {
		List<byte[]> segments = segments(new Random(11), 3);
		for (int i = 1; i <= 4; i++) {
			scrape(null, filtered(i), segments);
		}
		KeptBody taken = this.kept.take(filtered(4));
		assertThat(taken).isNotNull();
		scrape(null, filtered(5), segments);
		// Kept again where its kind is still kept: the least recently rendered went.
		this.kept.giveBack(filtered(4), taken);
		KeptBody again = this.kept.previous(filtered(4));
		assertThat(again).as("the kind whose body was taken is still kept").isSameAs(taken);
		again.release();
		assertThat(this.kept.previous(filtered(1))).as("the least recently rendered kind").isNull();
	}

	@Test
	void aKindNotRenderedForFiveMinutesIsDroppedAtTheNextScrapeOfAnyKind() throws IOException {
		try (GzipEncoder encoder = new GzipEncoder(this.pool, 1)) {
			List<byte[]> segments = segments(new Random(14), 5);
			scrape(encoder, filtered(1), segments);
			this.clock.addAndGet(TimeUnit.MINUTES.toNanos(4));
			scrape(encoder, filtered(2), segments);
			assertThat(this.kept.keptKinds()).isEqualTo(2);
			this.clock.addAndGet(TimeUnit.MINUTES.toNanos(2));
			scrape(encoder, filtered(2), segments);
			assertThat(this.kept.keptKinds()).as("the first kind expired").isOne();
		}
	}

	private static BodyKind filtered(int i) {
		return BodyKind.of(PrometheusOutputFormat.CONTENT_TYPE_004, java.util.Set.of("f" + i));
	}

	@Test
	void withoutReuseEverySegmentIsCompressedAndNothingIsKept() throws IOException {
		this.kept = new KeptBodies(false);
		try (GzipEncoder encoder = new GzipEncoder(this.pool, 1)) {
			List<byte[]> segments = segments(new Random(5), 8);
			scrape(encoder, OPENMETRICS, segments);
			assertThat(gunzip(scrape(encoder, OPENMETRICS, segments))).isEqualTo(join(segments));
			assertThat(encoder.segmentsReused()).isZero();
			assertThat(encoder.segmentsCompressed()).isEqualTo(2);
			assertThat(this.pool.chunksInUse()).isZero();
		}
	}

	@Test
	void forgottenSegmentsAreCompressedAgain() throws IOException {
		try (GzipEncoder encoder = new GzipEncoder(this.pool, 1)) {
			List<byte[]> segments = segments(new Random(6), 8);
			scrape(encoder, OPENMETRICS, segments);
			scrape(encoder, OPENMETRICS, segments);
			this.kept.forgetAll();
			assertThat(this.pool.chunksInUse()).isZero();
			assertThat(gunzip(scrape(encoder, OPENMETRICS, segments))).isEqualTo(join(segments));
			assertThat(encoder.segmentsReused()).isZero();
		}
	}

	@Test
	void anErrorWhileCompressingLeaksNothing() throws IOException {
		try (GzipEncoder gzip = new GzipEncoder(this.pool, 1)) {
			List<byte[]> segments = segments(new Random(15), 8);
			scrape(gzip, OPENMETRICS, segments);
			scrape(gzip, OPENMETRICS, segments);
			BodyEncoder failing = new FailingEncoder(gzip);
			assertThatExceptionOfType(OutOfMemoryError.class).isThrownBy(() -> scrape(failing, OPENMETRICS, segments));
			long kept = this.kept.heldChunks();
			assertThat(this.pool.chunksInUse()).isEqualTo(kept);
			assertThat(gunzip(scrape(gzip, OPENMETRICS, segments))).isEqualTo(join(segments));
		}
	}

	@Test
	void anErrorWhileKeepingABodyLeaksNothing() throws IOException {
		AtomicBoolean failing = clockFailingWhen();
		try (GzipEncoder gzip = new GzipEncoder(this.pool, 1)) {
			List<byte[]> segments = segments(new Random(16), 8);
			scrape(gzip, OPENMETRICS, segments);
			scrape(gzip, OPENMETRICS, segments);
			long held = this.pool.chunksInUse();
			try {
				assertThatExceptionOfType(OutOfMemoryError.class)
					.isThrownBy(() -> render(OPENMETRICS, segments, () -> failing.set(true)));
			}
			finally {
				failing.set(false);
			}
			assertThat(this.pool.chunksInUse()).as("the new body went back").isEqualTo(held);
			assertThat(gunzip(scrape(gzip, OPENMETRICS, segments))).isEqualTo(join(segments));
		}
	}

	@Test
	void randomChangesDecodeWithTheJdkAndTheGzipTool() throws Exception {
		Random random = new Random(7);
		try (GzipEncoder encoder = new GzipEncoder(this.pool, 1)) {
			List<byte[]> segments = segments(random, 25);
			for (int scrape = 0; scrape < 40; scrape++) {
				change(random, segments, scrape);
				byte[] gzip = scrape(encoder, OPENMETRICS, segments);
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
		try (ZstdEncoder encoder = new ZstdEncoder(this.pool, 1, true)) {
			List<byte[]> segments = segments(random, 12);
			for (int scrape = 0; scrape < 12; scrape++) {
				change(random, segments, scrape);
				assertThat(DecodingTools.zstd(scrape(encoder, OPENMETRICS, segments))).as("scrape %d", scrape)
					.isEqualTo(join(segments));
			}
			assertThat(encoder.segmentsReused()).isPositive();
		}
	}

	@Test
	void zstdIsOneFrameUnlessFramesPerSegmentAreAllowed() {
		try (ZstdEncoder encoder = new ZstdEncoder(this.pool, 1, false)) {
			List<byte[]> segments = segments(new Random(16), 12);
			for (int i = 0; i < 4; i++) {
				assertThat(DecodingTools.zstd(scrape(encoder, OPENMETRICS, segments))).isEqualTo(join(segments));
			}
			assertThat(encoder.segmentsCompressed()).as("a frame each").isEqualTo(4);
			assertThat(encoder.segmentsReused()).isZero();
		}
	}

	@Test
	void aCodingThatFindsTooLittleToCopyCompressesWholeAndBySegmentOnceTheBodyIsAsItWas() throws IOException {
		try (ZstdEncoder zstd = new ZstdEncoder(this.pool, 1, true)) {
			List<byte[]> segments = segments(new Random(11), 12);
			scrape(zstd, OPENMETRICS, segments);
			assertThat(zstd.segmentsCompressed()).as("a first body, one frame").isEqualTo(1);
			scrape(zstd, OPENMETRICS, segments);
			assertThat(zstd.segmentsCompressed()).as("as it was: a frame per segment").isEqualTo(1 + 12);
			segments.replaceAll((segment) -> segment(new Random(segment.length)));
			assertThat(DecodingTools.zstd(scrape(zstd, OPENMETRICS, segments))).isEqualTo(join(segments));
			assertThat(zstd.segmentsCompressed()).as("everything changed: one frame").isEqualTo(1 + 12 + 1);
			assertThat(DecodingTools.zstd(scrape(zstd, OPENMETRICS, segments))).isEqualTo(join(segments));
			assertThat(zstd.segmentsCompressed()).as("as it was again: a frame per segment, nothing to copy yet")
				.isEqualTo(1 + 12 + 1 + 12);
			assertThat(DecodingTools.zstd(scrape(zstd, OPENMETRICS, segments))).isEqualTo(join(segments));
			assertThat(zstd.segmentsReused()).isEqualTo(12);
		}
	}

	@Test
	void oneScraperOfThreeInTurnThatCopiesCopiesAtEachOfItsScrapes() throws IOException {
		try (GzipEncoder gzip = new GzipEncoder(this.pool, 1);
				ZstdEncoder zstd = new ZstdEncoder(this.pool, 1, false)) {
			Random random = new Random(18);
			List<byte[]> segments = segments(random, 12);
			List<@Nullable BodyEncoder> codings = new ArrayList<>();
			codings.add(gzip);
			codings.add(zstd);
			codings.add(null);
			// One segment changes between scrapes: gzip copies the rest; zstd, one frame,
			// and the uncompressed scraper copy nothing, and the body stays kept.
			for (int round = 0; round < 60; round++) {
				segments.set(1 + round % 11, segment(random));
				BodyEncoder coding = codings.get(round % 3);
				byte[] bytes = scrape(coding, OPENMETRICS, segments);
				if (coding == gzip) {
					assertThat(gunzip(bytes)).isEqualTo(join(segments));
				}
				assertThat(this.kept.keptKinds()).as("round %d", round).isOne();
			}
			// Gzip's first scrape is compressed whole, its second makes a form by
			// segment, and each of the 18 after it copies all but three segments.
			assertThat(gzip.segmentsReused()).isEqualTo(18 * 9);
		}
	}

	@Test
	void twoScrapersOfThreeInTurnThatCopyCopyAtEachOfTheirScrapes() throws IOException {
		try (GzipEncoder gzip = new GzipEncoder(this.pool, 1);
				ZstdEncoder zstd = new ZstdEncoder(this.pool, 1, false)) {
			Random random = new Random(20);
			List<byte[]> segments = segments(random, 12);
			for (int round = 0; round < 60; round++) {
				segments.set(1 + round % 11, segment(random));
				scrape((round % 3 == 2) ? zstd : gzip, OPENMETRICS, segments);
				assertThat(this.kept.keptKinds()).as("round %d", round).isOne();
			}
			assertThat(gzip.segmentsReused()).isGreaterThan(35 * 10);
		}
	}

	@Test
	void anEmptyBodyAndOneWithoutSegmentsDecode() throws IOException {
		try (GzipEncoder gzip = new GzipEncoder(this.pool, 1); ZstdEncoder zstd = new ZstdEncoder(this.pool, 1, true)) {
			for (int i = 0; i < 3; i++) {
				assertThat(gunzip(scrape(gzip, OPENMETRICS, List.of()))).isEmpty();
				assertThat(DecodingTools.zstd(scrape(zstd, OPENMETRICS, List.of()))).isEmpty();
				byte[] whole = join(segments(new Random(9), 5));
				assertThat(gunzip(scrape(gzip, TEXT, List.of(whole)))).isEqualTo(whole);
				assertThat(DecodingTools.zstd(scrape(zstd, TEXT, List.of(whole)))).isEqualTo(whole);
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

	/**
	 * Scrape as the scraper does: render a body of the segments with the kept body of its
	 * kind offered, keep it, and compress it in a coding ({@code null} for none).
	 */
	@Test
	void aBodyDroppedForRoomGoesBackWithItsFormsAndTheNextIsCompressedWhole() throws IOException {
		try (GzipEncoder encoder = new GzipEncoder(this.pool, 1)) {
			List<byte[]> segments = segments(new Random(23), 30);
			scrape(encoder, TEXT, segments);
			scrape(encoder, TEXT, segments);
			assertThat(encoder.segmentsReused()).isEqualTo(0);
			assertThat(this.kept.heldChunks()).isPositive();
			this.kept.makeRoomFor(OPENMETRICS);
			assertThat(this.kept.keptKinds()).as("no body kept").isZero();
			assertThat(this.pool.chunksInUse()).as("nothing held, no form either").isZero();
			long compressed = encoder.segmentsCompressed();
			assertThat(gunzip(scrape(encoder, TEXT, segments))).isEqualTo(join(segments));
			assertThat(encoder.segmentsCompressed()).as("compared with nothing: whole").isEqualTo(compressed + 1);
			assertThat(this.kept.keptKinds()).as("the new body kept").isOne();
		}
	}

	@Test
	void aCompressedFormMadeWhileItsBodyIsDroppedForRoomIsNotKept() throws IOException {
		try (GzipEncoder gzip = new GzipEncoder(this.pool, 1)) {
			List<byte[]> segments = segments(new Random(21), 20);
			scrape(gzip, TEXT, segments);
			scrape(null, TEXT, segments);
			// A rendering of another kind makes room while this body is compressed.
			scrape(new MakingRoomEncoder(gzip, () -> this.kept.makeRoomFor(OPENMETRICS)), TEXT, segments);
			assertThat(this.kept.keptKinds()).isZero();
			assertThat(this.pool.chunksInUse()).as("nothing held for the kind dropped").isZero();
		}
	}

	@Test
	void aBodyDroppedForRoomWhileTheNextIsComparedWithItLeavesTheNextKept() throws IOException {
		try (GzipEncoder gzip = new GzipEncoder(this.pool, 1)) {
			List<byte[]> segments = segments(new Random(22), 20);
			for (int drop = 0; drop < 3; drop++) {
				scrape(null, TEXT, segments);
				// After the comparison, before the body is kept, a rendering of another
				// kind makes room.
				render(TEXT, segments, () -> this.kept.makeRoomFor(OPENMETRICS)).release();
				assertThat(this.kept.keptKinds()).as("drop %d", drop).isOne();
				assertThat(this.pool.chunksInUse()).isEqualTo(this.kept.heldChunks());
			}
			assertThat(gunzip(scrape(gzip, TEXT, segments))).isEqualTo(join(segments));
			assertThat(gunzip(scrape(gzip, TEXT, segments))).isEqualTo(join(segments));
			assertThat(gzip.segmentsReused()).as("a kind dropped again and again still copies").isEqualTo(20);
		}
	}

	@Test
	void aBodyTakenByARenderingThatIsRejectedIsKeptAgain() {
		List<byte[]> segments = segments(new Random(3), 8);
		scrape(null, OPENMETRICS, segments);
		KeptBody taken = this.kept.take(OPENMETRICS);
		assertThat(taken).isNotNull();
		assertThat(this.kept.previous(OPENMETRICS)).as("taken out").isNull();
		this.kept.giveBack(OPENMETRICS, taken);
		KeptBody previous = this.kept.previous(OPENMETRICS);
		assertThat(previous).isSameAs(taken);
		previous.release();
		assertThat(this.kept.take(TEXT)).as("nothing kept of that kind").isNull();
		KeptBody again = this.kept.take(OPENMETRICS);
		assertThat(again).isSameAs(taken);
		again.release();
		assertThat(this.kept.previous(OPENMETRICS)).isNull();
	}

	@Test
	void aBodyIsTakenOnlyWhereWhatIsKeptHoldsItsOnlyReferenceAndNothingReachesItOnceTaken() {
		scrape(null, OPENMETRICS, segments(new Random(5), 8));
		// Another holder reads it (a rendering copying from it, a scrape sending it, the
		// cache): not taken.
		KeptBody reader = this.kept.previous(OPENMETRICS);
		assertThat(reader).isNotNull();
		assertThat(this.kept.take(OPENMETRICS)).as("read by a rendering").isNull();
		reader.release();
		KeptBody taken = this.kept.take(OPENMETRICS);
		assertThat(taken).isNotNull();
		assertThat(taken.body().isOnlyReference()).isTrue();
		// Every way to a kept body skips a taken one: the reference taken stays the only
		// one, and its holder may give its chunks back as it reads it.
		assertThat(this.kept.previous(OPENMETRICS)).isNull();
		assertThat(this.kept.take(OPENMETRICS)).isNull();
		try (RenderLease lease = this.kept.lease(OPENMETRICS)) {
			assertThat(lease.takenChunks()).isZero();
			assertThat(lease.start().copyFrom()).isNull();
		}
		try (GzipEncoder encoder = new GzipEncoder(this.pool, 1)) {
			// Compressed whole, and not kept.
			this.kept.encode(taken.body(), OPENMETRICS.encoded(ContentCoding.GZIP), encoder, 0).release();
		}
		assertThat(taken.body().isOnlyReference()).isTrue();
		taken.body().releaseBefore(taken.body().length());
		taken.release();
	}

	@Test
	void aBodyKeptWhoseHolderFailsIsReleasedOnceByTheLease() throws IOException {
		try (GzipEncoder gzip = new GzipEncoder(this.pool, 1)) {
			List<byte[]> segments = segments(new Random(23), 8);
			scrape(gzip, OPENMETRICS, segments);
			scrape(gzip, OPENMETRICS, segments);
			try (RenderLease lease = this.kept.lease(OPENMETRICS)) {
				assertThat(lease.takenChunks()).as("the lease took the kept body").isPositive();
				assertThatExceptionOfType(OutOfMemoryError.class)
					.isThrownBy(() -> lease.render(renderer(segments, () -> {
					}), (body) -> {
						throw new OutOfMemoryError("planted");
					}));
			}
			assertThat(this.kept.keptKinds()).as("the new body kept").isOne();
			assertThat(this.pool.chunksInUse()).as("the rendering's reference released")
				.isEqualTo(this.kept.heldChunks());
			assertThat(gunzip(scrape(gzip, OPENMETRICS, segments))).isEqualTo(join(segments));
		}
	}

	@Test
	void anErrorWhileKeepingABodyTheLeaseTookLeaksNothing() throws IOException {
		AtomicBoolean failing = clockFailingWhen();
		try (GzipEncoder gzip = new GzipEncoder(this.pool, 1)) {
			List<byte[]> segments = segments(new Random(24), 8);
			scrape(gzip, OPENMETRICS, segments);
			scrape(gzip, OPENMETRICS, segments);
			try (RenderLease lease = this.kept.lease(OPENMETRICS)) {
				assertThat(lease.takenChunks()).as("the lease took the kept body").isPositive();
				assertThatExceptionOfType(OutOfMemoryError.class)
					.isThrownBy(() -> lease.render(renderer(segments, () -> failing.set(true)), (body) -> body));
			}
			finally {
				failing.set(false);
			}
			assertThat(this.kept.keptKinds()).as("neither body kept").isZero();
			assertThat(this.pool.chunksInUse()).as("the new body and the one taken went back")
				.isEqualTo(this.kept.heldChunks());
			assertThat(gunzip(scrape(gzip, OPENMETRICS, segments))).isEqualTo(join(segments));
		}
	}

	@Test
	void aLeaseClosedBeforeItsRenderingStartsGivesTheBodyItTookBack() {
		List<byte[]> segments = segments(new Random(3), 8);
		scrape(null, OPENMETRICS, segments);
		long inUse = this.pool.chunksInUse();
		RenderLease lease = this.kept.lease(OPENMETRICS);
		assertThat(lease.takenChunks()).as("the lease took the kind's body").isEqualTo(inUse);
		assertThat(this.kept.previous(OPENMETRICS)).as("taken out").isNull();
		lease.close();
		assertThat(this.kept.keptKinds()).isOne();
		try (RenderLease again = this.kept.lease(OPENMETRICS)) {
			assertThat(again.takenChunks()).isEqualTo(inUse);
			RenderInputs inputs = again.start();
			assertThat(inputs.copyFrom()).as("the body taken").isNotNull();
			assertThat(inputs.kept()).isTrue();
		}
		assertThat(this.kept.keptKinds()).as("started and not committed: nothing kept").isZero();
		assertThat(this.pool.chunksInUse()).isZero();
	}

	// Kept bodies whose clock throws an OutOfMemoryError while the flag returned is set.
	private AtomicBoolean clockFailingWhen() {
		AtomicBoolean failing = new AtomicBoolean();
		this.kept = new KeptBodies(true, () -> {
			if (failing.get()) {
				throw new OutOfMemoryError("planted");
			}
			return this.clock.get();
		});
		return failing;
	}

	private byte[] scrape(@Nullable BodyEncoder encoder, BodyKind kind, List<byte[]> segments) {
		PooledBody body = render(kind, segments, () -> {
		});
		try {
			if (encoder == null) {
				return body.toByteArray();
			}
			PooledBody encoded = this.kept.encode(body, kind.encoded(encoder.coding()), encoder, 0);
			byte[] bytes = encoded.toByteArray();
			encoded.release();
			return bytes;
		}
		finally {
			body.release();
		}
	}

	// Renders the segments through a lease, as the scraper does, where the kept body is
	// read by another holder, as while a scrape sends it: offered, not taken, so that
	// none of its chunks goes back before the comparison (segments here are smaller
	// than a chunk).
	private PooledBody render(BodyKind kind, List<byte[]> segments, Runnable beforeKept) {
		KeptBody reader = this.kept.previous(kind);
		try (RenderLease lease = this.kept.lease(kind)) {
			return lease.render(renderer(segments, beforeKept), (body) -> body);
		}
		finally {
			if (reader != null) {
				reader.release();
			}
		}
	}

	// Writes the segments, each ended, so compared as it ends; then runs beforeKept,
	// before the body is kept.
	private PooledBodyRenderer renderer(List<byte[]> segments, Runnable beforeKept) {
		ExpositionRenderer writer = (format, includedNames, output) -> {
			for (byte[] segment : segments) {
				output.write(segment);
				output.endSegment(1);
			}
			beforeKept.run();
		};
		return new PooledBodyRenderer(writer, this.pool, this.sizeHints);
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

	/**
	 * An encoder that runs out of memory once it has compressed part of a body.
	 */
	private static final class FailingEncoder implements BodyEncoder {

		private final BodyEncoder delegate;

		FailingEncoder(BodyEncoder delegate) {
			this.delegate = delegate;
		}

		@Override
		public io.github.leanscrape.exposition.ContentCoding coding() {
			return this.delegate.coding();
		}

		@Override
		public EncodedBody encode(PooledBody body, BodyKind kind, long expectedSize, boolean segmented,
				@Nullable EncodedBody previous, int @Nullable [] copyFrom) {
			this.delegate.encode(body, kind, expectedSize, segmented, previous, copyFrom).body().release();
			throw new OutOfMemoryError("planted");
		}

		@Override
		public double minReusedShare() {
			return this.delegate.minReusedShare();
		}

		@Override
		public boolean compressesSegments() {
			return true;
		}

		@Override
		public long segmentsCompressed() {
			return 0;
		}

		@Override
		public long segmentsReused() {
			return 0;
		}

	}

	/**
	 * An encoder that runs something, as another scrape could meanwhile, before it
	 * compresses.
	 */
	private static final class MakingRoomEncoder implements BodyEncoder {

		private final BodyEncoder encoder;

		private final Runnable meanwhile;

		MakingRoomEncoder(BodyEncoder encoder, Runnable meanwhile) {
			this.encoder = encoder;
			this.meanwhile = meanwhile;
		}

		@Override
		public ContentCoding coding() {
			return this.encoder.coding();
		}

		@Override
		public EncodedBody encode(PooledBody body, BodyKind kind, long expectedSize, boolean segmented,
				@Nullable EncodedBody previous, int @Nullable [] copyFrom) {
			this.meanwhile.run();
			return this.encoder.encode(body, kind, expectedSize, segmented, previous, copyFrom);
		}

		@Override
		public double minReusedShare() {
			return this.encoder.minReusedShare();
		}

		@Override
		public boolean compressesSegments() {
			return this.encoder.compressesSegments();
		}

		@Override
		public long segmentsCompressed() {
			return this.encoder.segmentsCompressed();
		}

		@Override
		public long segmentsReused() {
			return this.encoder.segmentsReused();
		}

	}

}
