package io.github.leanscrape.serve;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.github.leanscrape.compression.GzipEncoder;
import io.github.leanscrape.compression.ZstdEncoder;
import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.ExpositionRenderer;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.RenderInputs;
import io.github.leanscrape.exposition.SizeHints;
import io.github.leanscrape.support.OwnCodeTests;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for the bound that {@link Scraper} puts on the memory held by scrape bodies.
 *
 * @author leanscrape
 */
@Tag(OwnCodeTests.TAG)
class ScraperMemoryLimitTests {

	private static final int CHUNK = 1024;

	/**
	 * Four chunks of output for every scrape, whatever its kind.
	 */
	private static final ExpositionRenderer FOUR_CHUNKS = (format, includedNames, out) -> {
		for (int i = 0; i < 4 * CHUNK; i++) {
			out.write('x');
		}
	};

	/**
	 * Forty chunks of output in ten segments.
	 */
	private static final ExpositionRenderer FORTY_CHUNKS = (format, includedNames, out) -> {
		for (int i = 0; i < 40 * CHUNK; i++) {
			out.write('x');
			if ((i + 1) % (4 * CHUNK) == 0) {
				out.endSegment(1);
			}
		}
	};

	private static final PrometheusOutputFormat TEXT = PrometheusOutputFormat.CONTENT_TYPE_004;

	private static final PrometheusOutputFormat OPENMETRICS = PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100;

	@Test
	void renderingWaitsForHeldBodiesAndIsRejectedAtItsDeadline() throws Exception {
		Scraper scraper = scraper(2.5);
		ScrapeBody first = scraper.scrape(TEXT, null, deadline(Duration.ofSeconds(10))).body();
		ScrapeBody second = scraper.scrape(TEXT, Set.of("other"), deadline(Duration.ofSeconds(10))).body();
		// Two bodies of four chunks held, four more expected: more than 2.5 bodies.
		assertThatExceptionOfType(ScrapeRejectedException.class)
			.isThrownBy(() -> scraper.scrape(TEXT, null, deadline(Duration.ofMillis(100))));
		assertThat(this.pool.reservedChunks()).isZero();
		first.release();
		ScrapeBody third = scraper.scrape(TEXT, null, deadline(Duration.ofSeconds(10))).body();
		assertThat(this.pool.peakChunksInUse()).isLessThanOrEqualTo(10);
		second.release();
		third.release();
		assertThat(this.pool.chunksInUse()).isZero();
	}

	@Test
	void cachedBodiesAreDroppedRatherThanHoldingBackARendering() throws Exception {
		Scraper scraper = scraper(2.5, Duration.ofHours(1));
		scraper.scrape(TEXT, null, deadline(Duration.ofSeconds(10))).body().release();
		scraper.scrape(TEXT, Set.of("other"), deadline(Duration.ofSeconds(10))).body().release();
		// Two bodies of four chunks held by the cache alone, four more expected: more
		// than 2.5 bodies, and the cache would hold them for an hour.
		assertThat(this.pool.chunksInUse()).isEqualTo(8);
		long start = System.nanoTime();
		ScrapeBody openMetrics = scraper.scrape(OPENMETRICS, null, deadline(Duration.ofSeconds(5))).body();
		assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(1));
		assertThat(this.pool.chunksInUse()).isEqualTo(4);
		openMetrics.release();
		// The rendering it made is cached; the dropped kinds are rendered again.
		ScrapeBody text = scraper.scrape(TEXT, null, deadline(Duration.ofSeconds(5))).body();
		text.release();
		scraper.clearCache();
		assertThat(this.pool.chunksInUse()).isZero();
	}

	@Test
	void aBodyCachedWhileARenderingWaitsDoesNotHoldItBack() throws Exception {
		Scraper scraper = scraper(2.5, Duration.ofHours(1));
		ScrapeBody first = scraper.scrape(TEXT, null, deadline(Duration.ofSeconds(10))).body();
		ScrapeBody second = scraper.scrape(TEXT, Set.of("other"), deadline(Duration.ofSeconds(10))).body();
		// Both held by their scrapes and the cache: a third kind waits for them.
		ExecutorService executor = Executors.newSingleThreadExecutor();
		try {
			Future<Served> third = executor
				.submit(() -> scraper.scrape(OPENMETRICS, null, deadline(Duration.ofSeconds(10))));
			Thread.sleep(200);
			assertThat(third).isNotDone();
			// The cache dropped them when the rendering began to wait; another rendering
			// would put them back, but their scrapes' releases alone give the chunks
			// back.
			first.release();
			second.release();
			third.get(5, TimeUnit.SECONDS).body().release();
		}
		finally {
			executor.shutdownNow();
		}
		scraper.clearCache();
		assertThat(this.pool.chunksInUse()).isZero();
	}

	@Test
	void bodiesKeptForReuseCountWithinTheLimitAndThoseOfOtherKindsGoFirst() throws Exception {
		List<@Nullable PooledBody> offered = new ArrayList<>();
		OfferedRenderer renderer = (format, includedNames, out, inputs) -> {
			offered.add(inputs.copyFrom());
			FOUR_CHUNKS.render(format, includedNames, out);
		};
		Scraper scraper = new Scraper(renderer, this.pool, new SizeHints(this.pool, 0),
				List.of(new GzipEncoder(this.pool, 1)), 2, Duration.ZERO, 2, true);
		PooledBody text = scrapeCompressed(scraper, null);
		PooledBody other = scrapeCompressed(scraper, Set.of("other"));
		// Each kind's last body (four chunks) is kept; its compressed form (one), made
		// whole, went with its scrape: eight chunks, as many as the limit.
		assertThat(scraper.keptChunks()).isEqualTo(8);
		assertThat(this.pool.chunksInUse()).isEqualTo(8);
		// A rendering of the text kind expects four chunks and one compressed: the body
		// kept for the other kind is dropped, the one this rendering copies from stays
		// until the rendering has replaced it.
		ScrapeBody next = scraper.scrape(TEXT, null, deadline(Duration.ofSeconds(10))).body();
		assertThat(other.isReleased()).isTrue();
		assertThat(offered.get(2)).isSameAs(text);
		assertThat(text.isReleased()).isTrue();
		PooledBody kept = next.plain();
		scraper.encode(next, ContentCoding.GZIP).release();
		next.release();
		// The limit, and the compressed form made after the other kind's rendering.
		assertThat(this.pool.peakChunksInUse()).isLessThanOrEqualTo(9);
		assertThat(kept.isReleased()).as("kept for the next rendering").isFalse();
		scraper.forgetKept();
		assertThat(this.pool.chunksInUse()).isZero();
	}

	@Test
	void theLastBodyOfASmallKindStaysKeptBesideItsNextRendering() throws Exception {
		// Two chunks a body, one compressed, made whole and gone with its scrape: the
		// kept body and the next rendering, which gives back nothing as it goes, take
		// four chunks, as many as two bodies.
		List<@Nullable PooledBody> offered = new ArrayList<>();
		OfferedRenderer twoChunks = (format, includedNames, out, inputs) -> {
			offered.add(inputs.copyFrom());
			for (int i = 0; i < CHUNK + CHUNK / 2; i++) {
				out.write('a' + (i % 7));
			}
		};
		Scraper scraper = new Scraper(twoChunks, this.pool, new SizeHints(this.pool, 0),
				List.of(new GzipEncoder(this.pool, 1)), 2, Duration.ZERO, 2, true);
		PooledBody first = scrapeCompressed(scraper, null);
		assertThat(scraper.keptChunks()).isEqualTo(2);
		ScrapeBody next = scraper.scrape(TEXT, null, deadline(Duration.ofSeconds(10))).body();
		assertThat(offered.get(1)).as("the kept body, offered to the next rendering").isSameAs(first);
		scraper.encode(next, ContentCoding.GZIP).release();
		next.release();
		assertThat(first.isReleased()).isTrue();
		// The next body, and its gzip form by segment.
		assertThat(scraper.keptChunks()).isEqualTo(3);
		scraper.forgetKept();
		assertThat(this.pool.chunksInUse()).isZero();
	}

	@Test
	void noRotationOfCodingsKindsOrNameFiltersMakesThePoolRefill() throws Exception {
		// A pool that keeps free chunks, as the starter's does
		// (leanscrape.buffer.max-retained).
		ChunkPool pool = new ChunkPool(CHUNK, 64 << 20);
		AtomicInteger round = new AtomicInteger();
		// Sixteen families of twenty lines, a segment each; a tenth of them change every
		// round.
		ExpositionRenderer changing = (format, includedNames, out) -> {
			Random random = new Random(format.ordinal() * 31L + ((includedNames != null) ? 7 : 0));
			int now = round.get();
			for (int family = 0; family < 16; family++) {
				for (int line = 0; line < 20; line++) {
					int value = (family % 10 == now % 10) ? now : 0;
					out.writeAscii("family_" + family + "{line=\"" + random.nextInt(100_000) + "\"} " + value + "\n");
				}
				out.endSegment(1);
			}
		};
		Scraper scraper = new Scraper(changing, pool, new SizeHints(pool, 0),
				List.of(new GzipEncoder(pool, 1), new ZstdEncoder(pool, 1, true)), 2, Duration.ZERO, 2.5, true);
		// Two Prometheus servers (gzip, zstd), a person with curl (text, uncompressed)
		// and a
		// dashboard asking one family: kinds, codings and name filters in turn.
		List<Object[]> turns = new ArrayList<>();
		turns.add(new Object[] { OPENMETRICS, null, ContentCoding.GZIP });
		turns.add(new Object[] { OPENMETRICS, null, ContentCoding.ZSTD });
		turns.add(new Object[] { TEXT, null, null });
		turns.add(new Object[] { OPENMETRICS, Set.of("family_1"), ContentCoding.GZIP });
		long allocated = -1;
		for (int i = 0; i < 48; i++) {
			round.incrementAndGet();
			Object[] turn = turns.get(i % turns.size());
			@SuppressWarnings("unchecked")
			Set<String> names = (Set<String>) turn[1];
			ScrapeBody body = scraper.scrape((PrometheusOutputFormat) turn[0], names, deadline(Duration.ofSeconds(10)))
				.body();
			if (turn[2] != null) {
				scraper.encode(body, (ContentCoding) turn[2]).release();
			}
			body.release();
			if (i == 15) {
				allocated = pool.allocatedChunks();
			}
		}
		assertThat(pool.allocatedChunks()).as("chunks allocated after four rounds of the four").isEqualTo(allocated);
		scraper.forgetKept();
		assertThat(pool.chunksInUse()).isZero();
	}

	@Test
	void ofTwoKindsBeyondTheLimitInGzipOneReusesItsSegmentsAndTheOtherIsDroppedEachTime() throws Exception {
		// Prometheus (OpenMetrics) and VictoriaMetrics (text) in turn, both asking gzip,
		// within 2.05 bodies (82 chunks): both bodies kept, their forms and what a
		// rendering of one of them needs beside the body it gives back as it goes, do not
		// fit (at 2.1 they would, where a form compressed whole goes with its scrape), so
		// each rendering of the text kind drops the other's body and forms: the
		// OpenMetrics kind is offered none.
		ChunkPool pool = new ChunkPool(CHUNK, 64 << 20);
		Map<PrometheusOutputFormat, List<Boolean>> offered = new EnumMap<>(PrometheusOutputFormat.class);
		OfferedRenderer renderer = (format, includedNames, out, inputs) -> {
			offered.computeIfAbsent(format, (key) -> new ArrayList<>()).add(offeredItsOwn(inputs, format));
			FORTY_CHUNKS.render(format, includedNames, out);
		};
		try (GzipEncoder gzip = new GzipEncoder(pool, 1)) {
			Scraper scraper = new Scraper(renderer, pool, new SizeHints(pool, 0), List.of(gzip), 2, Duration.ZERO, 2.05,
					true);
			scrapeTextAndOpenMetricsInTurn(scraper, 8, ContentCoding.GZIP);
			long allocated = pool.allocatedChunks();
			long reused = gzip.segmentsReused();
			scrapeTextAndOpenMetricsInTurn(scraper, 72, ContentCoding.GZIP);
			assertThat(offered.get(TEXT).subList(1, 40)).containsOnly(true);
			assertThat(offered.get(OPENMETRICS)).as("its body dropped before each of its renderings")
				.containsOnly(false);
			assertThat(gzip.segmentsReused()).as("every segment of each text body").isEqualTo(reused + 36 * 10);
			assertThat(pool.peakChunksInUse()).isLessThanOrEqualTo(82);
			assertThat(pool.allocatedChunks()).as("no chunk allocated after the first rounds").isEqualTo(allocated);
			scraper.forgetKept();
			assertThat(pool.chunksInUse()).isZero();
		}
	}

	@Test
	void whereABodyAndAGzipFormDoNotFitBesideARenderingTheKindDroppedIsCompressedWhole() throws Exception {
		// Bodies of seven 64 KiB chunks, compressed into two: the limit, 1.9 bodies (13
		// chunks), holds one body and its form beside a rendering of it, which gives the
		// body back as it goes and needs three chunks more, not the other kind's form
		// too.
		ChunkPool pool = new ChunkPool(64 * 1024, 64 << 20);
		ExpositionRenderer renderer = (format, includedNames, out) -> {
			Random random = new Random(format.ordinal());
			for (int family = 0; family < 200; family++) {
				for (int line = 0; line < 50; line++) {
					out.writeAscii("family_" + family + "_total{a=\"" + random.nextInt(100_000) + "\"} "
							+ random.nextInt(1000) + ".0\n");
				}
				out.endSegmentAt(family);
			}
		};
		try (GzipEncoder gzip = new GzipEncoder(pool, 1)) {
			Scraper scraper = new Scraper(renderer, pool, new SizeHints(pool, 16 * 1024), List.of(gzip), 2,
					Duration.ZERO, 1.9, true);
			scrapeTextAndOpenMetricsInTurn(scraper, 8, ContentCoding.GZIP);
			long compressed = gzip.segmentsCompressed();
			long reused = gzip.segmentsReused();
			scrapeTextAndOpenMetricsInTurn(scraper, 8, ContentCoding.GZIP);
			// The OpenMetrics kind reuses every segment; the text kind, its body and form
			// dropped before each of its renderings, compares with nothing: compressed
			// whole.
			ChunkedOutput output = new ChunkedOutput(pool, BodyKind.of(OPENMETRICS, null), 0);
			renderer.render(OPENMETRICS, null, output);
			PooledBody body = output.toBody();
			int segments = body.segmentCount();
			body.release();
			assertThat(segments).isGreaterThan(4);
			assertThat(gzip.segmentsReused()).isEqualTo(reused + 4 * segments);
			assertThat(gzip.segmentsCompressed()).isEqualTo(compressed + 4);
			// A rendering of a kind whose body was dropped is admitted within twice
			// what it expects (ten chunks). The text kind keeps its body too (it held
			// 18 chunks at most while it rested): with the copies made after a
			// rendering, less than three bodies.
			assertThat(pool.peakChunksInUse()).isLessThan(3 * 7);
			scraper.forgetKept();
			assertThat(pool.chunksInUse()).isZero();
		}
	}

	@Test
	void ofTwoKindsBeyondTheLimitInZstdOneKeepsItsBodyAndTheOtherIsDroppedEachTime() throws Exception {
		// As above, both asking zstd.
		ChunkPool pool = new ChunkPool(CHUNK, 64 << 20);
		Map<PrometheusOutputFormat, List<Boolean>> offered = new EnumMap<>(PrometheusOutputFormat.class);
		OfferedRenderer renderer = (format, includedNames, out, inputs) -> {
			offered.computeIfAbsent(format, (key) -> new ArrayList<>()).add(offeredItsOwn(inputs, format));
			FORTY_CHUNKS.render(format, includedNames, out);
		};
		Scraper scraper = new Scraper(renderer, pool, new SizeHints(pool, 0), List.of(new ZstdEncoder(pool, 1, true)),
				2, Duration.ZERO, 2.05, true);
		scrapeTextAndOpenMetricsInTurn(scraper, 4, ContentCoding.ZSTD);
		long allocated = pool.allocatedChunks();
		scrapeTextAndOpenMetricsInTurn(scraper, 76, ContentCoding.ZSTD);
		// The text kind, rendered while both bodies were kept, drops the other's and is
		// offered its own at every rendering after its first.
		assertThat(offered.get(TEXT).subList(1, 40)).containsOnly(true);
		// The other's body is dropped at each rendering of the text kind.
		assertThat(offered.get(OPENMETRICS)).containsOnly(false);
		assertThat(pool.peakChunksInUse()).isLessThanOrEqualTo(82);
		assertThat(pool.allocatedChunks()).as("no chunk allocated after the first rounds").isEqualTo(allocated);
		scraper.forgetKept();
		assertThat(pool.chunksInUse()).isZero();
	}

	@Test
	void atTwoAndAHalfBodiesTwoLargeKindsInTurnBothKeepTheirBody() throws Exception {
		// Forty chunks a body, compressed into one: both kept bodies with their forms
		// (82 chunks) and a rendering, which gives back the body of its kind as it goes
		// past it, fit within 2.5 bodies (100): no more than 87 chunks held at once. The
		// first rounds end once each kind's form by segment was replaced by the next: a
		// first form, compressed whole, goes with its scrape.
		ChunkPool pool = new ChunkPool(CHUNK, 64 << 20);
		Map<PrometheusOutputFormat, List<Boolean>> offered = new EnumMap<>(PrometheusOutputFormat.class);
		OfferedRenderer renderer = fortyChunksNotingOffers(offered);
		try (GzipEncoder gzip = new GzipEncoder(pool, 1)) {
			Scraper scraper = new Scraper(renderer, pool, new SizeHints(pool, 0), List.of(gzip), 2, Duration.ZERO, 2.5,
					true);
			scrapeTextAndOpenMetricsInTurn(scraper, 6, ContentCoding.GZIP);
			long allocated = pool.allocatedChunks();
			long compressed = gzip.segmentsCompressed();
			scrapeTextAndOpenMetricsInTurn(scraper, 16, ContentCoding.GZIP);
			assertThat(offered.get(TEXT).subList(1, 10)).containsOnly(true);
			assertThat(offered.get(OPENMETRICS).subList(1, 10)).containsOnly(true);
			assertThat(gzip.segmentsCompressed()).as("no segment of either kind compressed again")
				.isEqualTo(compressed);
			assertThat(pool.peakChunksInUse()).isLessThanOrEqualTo(87);
			assertThat(pool.allocatedChunks()).as("no chunk allocated after the first rounds").isEqualTo(allocated);
			scraper.forgetKept();
			assertThat(pool.chunksInUse()).isZero();
		}
	}

	@Test
	void aPrometheusBesideCurlBothKeepTheirBodies() throws Exception {
		// A Prometheus (OpenMetrics, gzip) and curl (text, uncompressed) in turn at 2.5
		// bodies: both bodies, the gzip form and a rendering of either, which gives its
		// kind's body back as it goes, fit. The OpenMetrics kind sends every segment as
		// it was.
		ChunkPool pool = new ChunkPool(CHUNK, 64 << 20);
		Map<PrometheusOutputFormat, List<Boolean>> offered = new EnumMap<>(PrometheusOutputFormat.class);
		OfferedRenderer renderer = fortyChunksNotingOffers(offered);
		try (GzipEncoder gzip = new GzipEncoder(pool, 1)) {
			Scraper scraper = new Scraper(renderer, pool, new SizeHints(pool, 0), List.of(gzip), 2, Duration.ZERO, 2.5,
					true);
			for (int i = 0; i < 40; i++) {
				boolean text = (i & 1) == 0;
				ScrapeBody body = scraper.scrape(text ? TEXT : OPENMETRICS, null, deadline(Duration.ofSeconds(10)))
					.body();
				if (!text) {
					scraper.encode(body, ContentCoding.GZIP).release();
				}
				body.release();
			}
			assertThat(offered.get(TEXT).subList(1, 20)).containsOnly(true);
			assertThat(offered.get(OPENMETRICS).subList(1, 20)).containsOnly(true);
			assertThat(gzip.segmentsReused()).as("every segment from the third OpenMetrics body").isEqualTo(18 * 10);
			assertThat(scraper.keptChunks()).as("both bodies and the gzip form").isEqualTo(81);
			scraper.forgetKept();
			assertThat(pool.chunksInUse()).isZero();
		}
	}

	@Test
	void theBodyARenderingTakesCountsAsKeptUntilItIsReplaced() throws Exception {
		// The starter's own metrics, what is kept among them, are written into the body
		// of a rendering that reads its kind's kept body and gives it back as it goes.
		ChunkPool pool = new ChunkPool(CHUNK, 64 << 20);
		AtomicReference<@Nullable Scraper> scraping = new AtomicReference<>();
		List<Boolean> offered = new ArrayList<>();
		List<Long> keptAtTheStart = new ArrayList<>();
		OfferedRenderer renderer = (format, includedNames, out, inputs) -> {
			offered.add(offeredItsOwn(inputs, format));
			Scraper scraper = scraping.get();
			keptAtTheStart.add((scraper != null) ? scraper.keptChunks() : -1);
			FORTY_CHUNKS.render(format, includedNames, out);
		};
		try (GzipEncoder gzip = new GzipEncoder(pool, 1)) {
			Scraper scraper = new Scraper(renderer, pool, new SizeHints(pool, 0), List.of(gzip), 2, Duration.ZERO, 2.5,
					true);
			scraping.set(scraper);
			// The first gzip form is compressed whole and goes with its scrape; the next
			// by
			// segment, kept beside the body.
			List<Long> kept = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				ScrapeBody body = scraper.scrape(OPENMETRICS, null, deadline(Duration.ofSeconds(10))).body();
				scraper.encode(body, ContentCoding.GZIP).release();
				body.release();
				kept.add(scraper.keptChunks());
			}
			assertThat(kept.get(0)).as("a body of forty chunks").isEqualTo(40);
			assertThat(kept.get(1)).as("a body of forty chunks and its gzip form").isGreaterThan(40);
			assertThat(offered.subList(1, 3)).as("each offered the kept body").containsOnly(true);
			assertThat(keptAtTheStart.subList(1, 3)).isEqualTo(kept.subList(0, 2));
			assertThat(pool.peakChunksInUse()).as("taken: its chunks given back as the rendering went")
				.isLessThan(kept.get(1) + 40);
			scraper.forgetKept();
			assertThat(pool.chunksInUse()).isZero();
		}
	}

	@Test
	void aBodyAScrapeStillHoldsIsCopiedFromByTheNextRenderingOfItsKindNotTaken() throws Exception {
		// A scrape still sending its body (or the cache, or a scrape that joined its
		// rendering) holds a reference of its own: the next rendering of the kind copies
		// from the body and gives none of its chunks back. Once only what is kept holds
		// it, the next rendering takes it and gives its chunks back as it goes.
		ChunkPool pool = new ChunkPool(CHUNK, 64 << 20);
		List<@Nullable PooledBody> offered = new ArrayList<>();
		List<Boolean> wholeAtTheEnd = new ArrayList<>();
		OfferedRenderer renderer = (format, includedNames, out, inputs) -> {
			PooledBody copyFrom = inputs.copyFrom();
			offered.add(copyFrom);
			FORTY_CHUNKS.render(format, includedNames, out);
			wholeAtTheEnd.add(copyFrom != null && copyFrom.holds(0));
		};
		Scraper scraper = new Scraper(renderer, pool, new SizeHints(pool, 0), List.of(), 2, Duration.ZERO, 2.5, true);
		ScrapeBody first = scraper.scrape(OPENMETRICS, null, deadline(Duration.ofSeconds(10))).body();
		ScrapeBody second = scraper.scrape(OPENMETRICS, null, deadline(Duration.ofSeconds(10))).body();
		assertThat(offered.get(1)).isSameAs(first.plain());
		assertThat(wholeAtTheEnd.get(1)).as("held by its scrape: not taken").isTrue();
		assertThat(first.plain().toByteArray()).hasSize(40 * CHUNK);
		first.release();
		PooledBody kept = second.plain();
		second.release();
		scraper.scrape(OPENMETRICS, null, deadline(Duration.ofSeconds(10))).body().release();
		assertThat(offered.get(2)).isSameAs(kept);
		assertThat(wholeAtTheEnd.get(2)).as("held by what is kept alone: taken").isFalse();
		assertThat(kept.isReleased()).isTrue();
		scraper.forgetKept();
		assertThat(pool.chunksInUse()).isZero();
	}

	@Test
	void aRenderingAdmittedBeforeAnySizeWasKnownCountsAsLargeAsTheLargestBody() throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		CountDownLatch started = new CountDownLatch(1);
		// Four chunks, but a rendering filtered to "slow" stops after its first chunk
		// until released.
		ExpositionRenderer renderer = (format, includedNames, out) -> {
			for (int i = 0; i < 4 * CHUNK; i++) {
				if (i == CHUNK && includedNames != null && includedNames.contains("slow")) {
					started.countDown();
					awaitUninterruptibly(release);
				}
				out.write('x');
			}
		};
		Scraper scraper = new Scraper(renderer, this.pool, new SizeHints(this.pool, 0), List.of(), 2, Duration.ZERO,
				2.5, false);
		ExecutorService executor = Executors.newSingleThreadExecutor();
		try {
			// No size known yet: admitted without reserving anything.
			Future<Served> slow = executor
				.submit(() -> scraper.scrape(TEXT, Set.of("slow"), deadline(Duration.ofSeconds(10))));
			assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
			ScrapeBody text = scraper.scrape(TEXT, null, deadline(Duration.ofSeconds(10))).body();
			// Four chunks held and one being rendered, which will hold four: another
			// four would make twelve, beyond the limit of ten.
			assertThatExceptionOfType(ScrapeRejectedException.class)
				.isThrownBy(() -> scraper.scrape(OPENMETRICS, null, deadline(Duration.ofMillis(200))));
			release.countDown();
			ScrapeBody slowBody = slow.get(5, TimeUnit.SECONDS).body();
			// Both done: eight chunks held, and four more would make twelve.
			text.release();
			ScrapeBody openMetrics = scraper.scrape(OPENMETRICS, null, deadline(Duration.ofSeconds(5))).body();
			assertThat(this.pool.peakChunksInUse()).isLessThanOrEqualTo(10);
			slowBody.release();
			openMetrics.release();
		}
		finally {
			release.countDown();
			executor.shutdownNow();
		}
		assertThat(this.pool.chunksInUse()).isZero();
	}

	private static void awaitUninterruptibly(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Test
	void noLimitWhenTurnedOff() throws Exception {
		Scraper scraper = scraper(0);
		ScrapeBody first = scraper.scrape(TEXT, null, deadline(Duration.ofSeconds(10))).body();
		ScrapeBody second = scraper.scrape(TEXT, Set.of("other"), deadline(Duration.ofSeconds(10))).body();
		ScrapeBody third = scraper.scrape(TEXT, null, deadline(Duration.ofMillis(100))).body();
		assertThat(this.pool.chunksInUse()).isEqualTo(12);
		first.release();
		second.release();
		third.release();
	}

	private final ChunkPool pool = new ChunkPool(CHUNK, 0);

	/**
	 * Scrape text and OpenMetrics in turn, text first, as a VictoriaMetrics and a
	 * Prometheus would.
	 * @param coding the coding both ask, or {@code null} for none
	 */
	/**
	 * Render forty chunks a body, noting for each rendering of a format whether it was
	 * offered its own kind's last body.
	 */
	private static OfferedRenderer fortyChunksNotingOffers(Map<PrometheusOutputFormat, List<Boolean>> offered) {
		return (format, includedNames, out, inputs) -> {
			offered.computeIfAbsent(format, (key) -> new ArrayList<>()).add(offeredItsOwn(inputs, format));
			FORTY_CHUNKS.render(format, includedNames, out);
		};
	}

	private static void scrapeTextAndOpenMetricsInTurn(Scraper scraper, int scrapes, @Nullable ContentCoding coding)
			throws ScrapeRejectedException {
		for (int i = 0; i < scrapes; i++) {
			ScrapeBody body = scraper
				.scrape(((i & 1) == 0) ? TEXT : OPENMETRICS, null, deadline(Duration.ofSeconds(10)))
				.body();
			if (coding != null) {
				scraper.encode(body, coding).release();
			}
			body.release();
		}
	}

	/**
	 * Scrape the text format with a name filter and compress it with gzip, as a scraper
	 * asking for gzip would, and let both go.
	 * @return the body, released but kept by the encoder
	 */
	private static PooledBody scrapeCompressed(Scraper scraper, @Nullable Set<String> includedNames)
			throws ScrapeRejectedException {
		ScrapeBody body = scraper.scrape(TEXT, includedNames, deadline(Duration.ofSeconds(10))).body();
		scraper.encode(body, ContentCoding.GZIP).release();
		body.release();
		return body.plain();
	}

	private Scraper scraper(double maxHeldBodies) {
		return scraper(maxHeldBodies, Duration.ZERO);
	}

	private Scraper scraper(double maxHeldBodies, Duration cacheTimeToLive) {
		// No headroom: a scrape is expected to need what the last one of its kind did.
		return new Scraper(FOUR_CHUNKS, this.pool, new SizeHints(this.pool, 0), List.of(), 2, cacheTimeToLive,
				maxHeldBodies, false);
	}

	private static long deadline(Duration timeout) {
		return System.nanoTime() + TimeUnit.NANOSECONDS.convert(timeout);
	}

	/**
	 * Return whether a rendering was offered the last body of its own kind, rather than
	 * none or the other text format's.
	 */
	private static boolean offeredItsOwn(RenderInputs inputs, PrometheusOutputFormat format) {
		PooledBody previous = inputs.copyFrom();
		return previous != null && previous.kind().format() == format;
	}

	/**
	 * A renderer told what the scraper offers it to copy from.
	 */
	@FunctionalInterface
	interface OfferedRenderer extends ExpositionRenderer {

		@Override
		void render(PrometheusOutputFormat format, @Nullable Set<String> includedNames, ChunkedOutput out,
				RenderInputs inputs) throws IOException;

		@Override
		default void render(PrometheusOutputFormat format, @Nullable Set<String> includedNames, ChunkedOutput out)
				throws IOException {
			render(format, includedNames, out, RenderInputs.NONE);
		}

	}

}
