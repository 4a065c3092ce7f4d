package io.github.leanscrape.reuse;

import java.util.ArrayList;
import java.util.List;

import io.github.leanscrape.compression.GzipEncoder;
import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.reuse.KeptKind.Holding;
import io.github.leanscrape.support.OwnCodeTests;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The holdings of a kind and the transitions between them: each transition leaves one
 * holding, with what it holds and nothing else; a take from another holding than
 * {@code BODY} is refused.
 */
@Tag(OwnCodeTests.TAG)
class KeptKindTests {

	private static final BodyKind TEXT = BodyKind.of(PrometheusOutputFormat.CONTENT_TYPE_004, null);

	private final ChunkPool pool = new ChunkPool(1024, 1 << 20);

	private final KeptKind kind = new KeptKind();

	@AfterEach
	void everyChunkGoesBack() {
		KeptBody body = this.kind.body();
		if (body != null) {
			body.release();
		}
		assertThat(this.pool.chunksInUse()).isZero();
	}

	@Test
	void aNewKindHoldsNothing() {
		assertThat(this.kind.holding()).isEqualTo(Holding.NOTHING);
		assertThat(this.kind.body()).isNull();
		assertThat(this.kind.taken()).isNull();
	}

	@Test
	void keepingABodyReplacesTheOneKeptBefore() {
		KeptBody first = body();
		assertThat(this.kind.keep(first)).isNull();
		assertThat(this.kind.holding()).isEqualTo(Holding.BODY);
		assertThat(this.kind.body()).isSameAs(first);
		KeptBody second = body();
		assertThat(this.kind.keep(second)).isSameAs(first);
		assertThat(this.kind.body()).isSameAs(second);
		first.release();
	}

	@Test
	void aTakenBodyIsNotOfferedAndComesBackOnlyAsItself() {
		KeptBody kept = body();
		this.kind.keep(kept);
		this.kind.take();
		assertThat(this.kind.holding()).isEqualTo(Holding.TAKEN);
		assertThat(this.kind.body()).as("not offered while taken").isNull();
		assertThat(this.kind.taken()).isSameAs(kept.body());
		KeptBody other = body();
		assertThat(this.kind.endTaken(other.body())).isFalse();
		assertThat(this.kind.holding()).isEqualTo(Holding.TAKEN);
		assertThat(this.kind.endTaken(kept.body())).isTrue();
		assertThat(this.kind.holding()).isEqualTo(Holding.NOTHING);
		this.kind.keep(kept);
		other.release();
	}

	@Test
	void aRenderingThatTookTheBodyEndsTheHoldingWhetherItKeepsOneOrNot() {
		KeptBody kept = body();
		this.kind.keep(kept);
		this.kind.take();
		KeptBody next = body();
		assertThat(this.kind.keep(next)).as("the taken body is the rendering's to release").isNull();
		assertThat(this.kind.holding()).isEqualTo(Holding.BODY);
		kept.release();
		this.kind.take();
		this.kind.clearTaken();
		assertThat(this.kind.holding()).isEqualTo(Holding.NOTHING);
		next.release();
	}

	@Test
	void aBodyDroppedForRoomLeavesNothingAndGivesBackItsBodyAndForms() {
		List<KeptBody> plains = new ArrayList<>();
		List<KeptForm> forms = new ArrayList<>();
		KeptBody kept = body();
		this.kind.keep(kept);
		this.kind.formsByCoding[0] = form(kept);
		this.kind.makeRoom(plains, forms);
		assertThat(plains).containsExactly(kept);
		assertThat(forms).hasSize(1);
		assertThat(this.kind.formsByCoding[0]).isNull();
		assertThat(this.kind.holding()).isEqualTo(Holding.NOTHING);
		kept.release();
		forms.forEach(KeptForm::release);
		plains.clear();
		forms.clear();
		this.kind.makeRoom(plains, forms);
		assertThat(plains).as("nothing to drop").isEmpty();
		KeptBody next = body();
		assertThat(this.kind.keep(next)).isNull();
		assertThat(this.kind.holding()).as("the next body is kept").isEqualTo(Holding.BODY);
	}

	@Test
	void aTransitionFromAnotherHoldingIsRefused() {
		assertThatIllegalStateException().isThrownBy(this.kind::take);
		KeptBody kept = body();
		this.kind.keep(kept);
		this.kind.take();
		assertThatIllegalStateException().isThrownBy(this.kind::take);
		this.kind.endTaken(kept.body());
		kept.release();
	}

	private KeptForm form(KeptBody body) {
		try (GzipEncoder gzip = new GzipEncoder(this.pool, 1)) {
			return new KeptForm(gzip.encode(body.body(), TEXT.encoded(ContentCoding.GZIP), 0, true, null, null),
					body.versions());
		}
	}

	private KeptBody body() {
		ChunkedOutput output = new ChunkedOutput(this.pool, TEXT, 0);
		output.writeAscii("a 1\n");
		return new KeptBody(output.toBody(), new long[] { 1 }, -1);
	}

}
