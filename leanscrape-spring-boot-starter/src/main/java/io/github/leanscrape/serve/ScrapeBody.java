package io.github.leanscrape.serve;

import java.util.function.Function;

import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.ReferenceCount;
import org.jspecify.annotations.Nullable;

/**
 * A rendered body shared by the scrapes that joined its rendering or took it from the
 * cache: the plain body and its form in each coding, made once; its last release gives
 * back the body's reference and every form's (docs/design.md, Pooled chunks and
 * admission).
 *
 * @author leanscrape
 */
public final class ScrapeBody {

	private static final ContentCoding[] CODINGS = ContentCoding.values();

	private final PooledBody plain;

	private final ReferenceCount references = new ReferenceCount();

	// Made when first asked for; a lock per slot lets two codings compress at once.
	private final @Nullable PooledBody[] forms = new PooledBody[CODINGS.length];

	private final Object[] formLocks = new Object[CODINGS.length];

	// Takes over the caller's reference to plain; the caller holds the first to this.
	ScrapeBody(PooledBody plain) {
		this.plain = plain;
		for (int i = 0; i < this.formLocks.length; i++) {
			this.formLocks[i] = new Object();
		}
	}

	/**
	 * Return the plain body; valid while a reference to this object is held.
	 * @return the plain body
	 */
	public PooledBody plain() {
		return this.plain;
	}

	// The form in a coding, made once by the encoder (whose reference this object takes
	// over); the caller owns a reference to the result.
	PooledBody form(ContentCoding coding, Function<PooledBody, PooledBody> encoder) {
		int slot = coding.ordinal();
		synchronized (this.formLocks[slot]) {
			if (this.references.isReleased()) {
				throw new IllegalStateException("Body already released");
			}
			PooledBody form = this.forms[slot];
			if (form == null) {
				form = encoder.apply(this.plain);
				this.forms[slot] = form;
			}
			return form.retain();
		}
	}

	void retain() {
		if (!tryRetain()) {
			throw new IllegalStateException("Body already released");
		}
	}

	boolean tryRetain() {
		return this.references.tryRetain();
	}

	// Drops a reference; releasing more often than retained does nothing.
	void release() {
		if (!this.references.release()) {
			return;
		}
		try {
			for (int slot = 0; slot < this.forms.length; slot++) {
				PooledBody form;
				synchronized (this.formLocks[slot]) {
					form = this.forms[slot];
					this.forms[slot] = null;
				}
				if (form != null) {
					form.release();
				}
			}
		}
		finally {
			this.plain.release();
		}
	}

}
