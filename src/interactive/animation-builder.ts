import type { ValidationIssue } from '../errors/validation-error.js';
import type { AnimationComponent } from '../model/content.js';
import { assertRecord, assertValid, Checks, compact, freezeList } from './checks.js';
import type { ComponentBuilder, ComponentOf } from './component-types.js';
import { EMessageComponentType } from './enums.js';
import { INTERACTIVE_LIMITS } from './limits.js';

/** The JSON of a animation component, as `build()` returns it. */
export type AnimationJson = ComponentOf<EMessageComponentType.ANIMATION>;

/** What a sprite animation is made of. */
export interface AnimationData {
  id?: string;
  /** URL of the sprite sheet (`url_image`). */
  imageUrl?: string;
  /** URL of the JSON of frame positions (`url_position`). */
  positionUrl?: string;
  /** Names of the frames to play. */
  pool?: readonly string[];
  /** Times to repeat (0: once). */
  repeat?: number;
  /** Duration of one run in seconds. */
  duration?: number;
}

/**
 * An immutable animation builder. `build()` refuses: a missing id; an image
 * or position URL that is not http(s); an empty pool, an empty pool entry,
 * more than 100 entries; a negative or fractional `repeat`; a `duration`
 * that is not a positive number.
 */
export class AnimationBuilder implements ComponentBuilder<AnimationJson> {
  readonly type = EMessageComponentType.ANIMATION;
  readonly #data: Readonly<AnimationData>;

  constructor(data: AnimationData = {}) {
    this.#data = Object.freeze({ ...data, ...(data.pool === undefined ? {} : { pool: freezeList(data.pool) }) });
  }

  /** A builder holding an existing animation; throws a ValidationError when it or its `component` is not an object. */
  static from(animation: { id: string; component: AnimationComponent }): AnimationBuilder {
    assertRecord(animation, '', 'animation');
    assertRecord(animation.component, 'component', 'animation');
    const c = animation.component;
    return new AnimationBuilder(compact({ id: animation.id, imageUrl: c.url_image, positionUrl: c.url_position, pool: c.pool, repeat: c.repeat, duration: c.duration }));
  }

  get id(): string | undefined {
    return this.#data.id;
  }

  /** What the builder holds (frozen). */
  get data(): Readonly<AnimationData> {
    return this.#data;
  }

  private with(patch: Partial<AnimationData>): AnimationBuilder {
    return new AnimationBuilder({ ...this.#data, ...patch });
  }

  /** A copy with the component id (required; at most 100 characters, no surrounding spaces). */
  setId(id: string): AnimationBuilder {
    return this.with({ id });
  }

  /** A copy with the sprite sheet URL (`url_image`; required, absolute http(s)). */
  setImageUrl(imageUrl: string): AnimationBuilder {
    return this.with({ imageUrl });
  }

  /** A copy with the URL of the frame-position JSON (`url_position`; required, absolute http(s)). */
  setPositionUrl(positionUrl: string): AnimationBuilder {
    return this.with({ positionUrl });
  }

  /** A copy with the names of the frames to play (1 to 100 non-empty names). */
  setPool(pool: readonly string[]): AnimationBuilder {
    return this.with({ pool });
  }

  /** A copy with how many times to repeat (an integer, 0 or more; 0 plays once; undefined removes it). */
  setRepeat(repeat: number | undefined): AnimationBuilder {
    return this.with({ repeat });
  }

  /** A copy with the duration of one run in seconds (a positive number; undefined removes it). */
  setDuration(duration: number | undefined): AnimationBuilder {
    return this.with({ duration });
  }

  validate(): ValidationIssue[] {
    const checks = new Checks();
    const d = this.#data;
    checks.id('id', d.id);
    checks.url('component.url_image', d.imageUrl, true);
    checks.url('component.url_position', d.positionUrl, true);
    const listed = checks.array('component.pool', d.pool);
    const pool = listed ?? [];
    if (listed && pool.length === 0) checks.add('component.pool', 'must name at least one frame');
    if (pool.length > INTERACTIVE_LIMITS.maxAnimationPool) checks.add('component.pool', `has ${pool.length} entries; the limit is ${INTERACTIVE_LIMITS.maxAnimationPool}`, 'too_large');
    pool.forEach((entry, i) => checks.text(`component.pool[${i}]`, entry, INTERACTIVE_LIMITS.maxOptionChars, true));
    checks.integer('component.repeat', d.repeat, 0);
    if (d.duration !== undefined && !(typeof d.duration === 'number' && Number.isFinite(d.duration) && d.duration > 0)) {
      checks.add('component.duration', 'must be a positive number of seconds');
    }
    return checks.list;
  }

  build(): AnimationJson {
    assertValid(this.validate(), 'animation');
    const d = this.#data;
    const component: AnimationComponent = compact({ url_image: d.imageUrl!, url_position: d.positionUrl!, pool: [...(d.pool ?? [])], repeat: d.repeat, duration: d.duration });
    return { type: EMessageComponentType.ANIMATION, id: d.id!, component };
  }

  /** Same as `build()`, so `JSON.stringify` writes the built JSON; throws a ValidationError when invalid. */
  toJSON(): AnimationJson {
    return this.build();
  }
}
