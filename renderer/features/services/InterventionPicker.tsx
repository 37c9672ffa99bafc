// The member's interventions (~850): searchable, filterable by sub-benefit and scenario, and
// windowed so only the rows in view exist. A listbox whose options are named by their code, with
// arrow keys, Home/End and Enter; a click selects too. SHA lists them a sub-benefit at a time: the
// search works over the groups that have arrived, and says how many are still coming and how many
// SHA has not been asked for (the nurse may ask for them all; a sub-benefit picked is asked for at once).
import { defaultRangeExtractor, useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../i18n/format';
import { SelectField, TextField } from '../../ui/Field';
import { filterInterventions } from './filter';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/Notice';
import { askForTheRest, retryServices, select, setScenario, setSearch, setSubBenefit, useServices } from './store';

const scenarios = ['capitation', 'elective-preauth', 'per-diem', 'emergency', 'other'] as const;
const rowHeight = 64;
/** Short lists are drawn whole, so every option can be found without scrolling. */
const drawWholeBelow = 60;

export function InterventionPicker() {
  const { t } = useTranslation();
  const format = useFormat();
  const index = useServices((s) => s.index);
  const search = useServices((s) => s.search);
  const subBenefitCode = useServices((s) => s.subBenefitCode);
  const scenario = useServices((s) => s.scenario);
  const selected = useServices((s) => s.selected);
  const subBenefits = useServices((s) => s.subBenefits);
  const waiting = useServices((s) => s.waiting.length);
  const unasked = useServices((s) => s.unasked.length);
  const failed = useServices((s) => s.failed.length);
  const groupError = useServices((s) => s.groupError);
  const waitingForChosen = useServices((s) => s.subBenefitCode !== '' && s.waiting.includes(s.subBenefitCode));
  const shown = useMemo(() => filterInterventions(index, { search, subBenefitCode, scenario }), [index, search, subBenefitCode, scenario]);
  const selectedIndex = selected === null ? -1 : shown.findIndex((item) => item.code === selected);
  // Open on the preselected intervention (the core's suggestion), so the nurse sees it in place.
  const [active, setActive] = useState(() => Math.max(0, selectedIndex));
  const scroller = useRef<HTMLDivElement>(null);

  // The selected and the active option are always drawn, even when scrolled out of view: the
  // listbox's aria-activedescendant must name an element that exists, and the choice stays findable.
  const rangeExtractor = useCallback(
    (range: Parameters<typeof defaultRangeExtractor>[0]) => {
      const indexes = new Set(defaultRangeExtractor(range));
      for (const index of [selectedIndex, active]) if (index >= 0 && index < shown.length) indexes.add(index);
      return [...indexes].sort((a, b) => a - b);
    },
    [selectedIndex, active, shown.length],
  );

  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: shown.length <= drawWholeBelow ? shown.length : 6,
    initialOffset: () => Math.max(0, selectedIndex - 1) * rowHeight,
    rangeExtractor,
  });

  // A new filter starts the keyboard at the top of what it shows.
  const filterKey = `${search}\u0000${subBenefitCode}\u0000${scenario}`;
  const [filteredBy, setFilteredBy] = useState(filterKey);
  if (filterKey !== filteredBy) {
    setFilteredBy(filterKey);
    setActive(0);
  }

  const activeItem = shown[Math.min(active, shown.length - 1)];

  const move = (to: number) => {
    const next = Math.max(0, Math.min(shown.length - 1, to));
    setActive(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? rowHeight) / rowHeight) - 1);
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(active + 1),
      ArrowUp: () => move(active - 1),
      PageDown: () => move(active + page),
      PageUp: () => move(active - page),
      Home: () => move(0),
      End: () => move(shown.length - 1),
      Enter: () => activeItem && select(activeItem.code),
      ' ': () => activeItem && select(activeItem.code),
    };
    const action = keys[event.key];
    if (action === undefined) return;
    event.preventDefault();
    action();
  };

  return (
    <div className="picker">
      <div className="picker-filters">
        <TextField
          label={t('services.search')}
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          id="intervention-search"
        />
        <SelectField
          label={t('services.subBenefit')}
          value={subBenefitCode}
          onChange={(event) => setSubBenefit(event.target.value)}
          choices={[{ value: '', label: t('services.allSubBenefits') }, ...subBenefits.map((b) => ({ value: b.code, label: b.name }))]}
        />
        <SelectField
          label={t('services.scenario')}
          value={scenario}
          onChange={(event) => setScenario(event.target.value)}
          choices={[{ value: '', label: t('services.allScenarios') }, ...scenarios.map((s) => ({ value: s, label: t(`scenario.${s}.name`) }))]}
        />
      </div>
      <p className="muted small" aria-live="polite">
        {t('services.count', { shown: format.number(shown.length), total: format.number(index.items.length) })}
      </p>
      {waiting > 0 && (
        <p className="progress small">
          {waitingForChosen ? t('services.groupLoading') : t('services.stillLoading', { count: waiting, groups: format.number(subBenefits.length) })}
        </p>
      )}
      {unasked > 0 && (
        <div className="picker-unasked">
          <p className="muted small">
            {shown.length === 0 && search.trim() !== '' && waiting === 0 && `${t('services.notListed')} `}
            {t('services.unasked', { count: unasked })}
          </p>
          <Button tone="quiet" onClick={askForTheRest}>
            {t('services.askRest')}
          </Button>
        </div>
      )}
      {failed > 0 && groupError !== null && waiting === 0 && (
        <>
          <p className="bad-text small">{t('services.groupsFailed', { count: failed })}</p>
          <ErrorNotice error={groupError} onRetry={retryServices} />
        </>
      )}
      <div
        ref={scroller}
        className="listbox"
        role="listbox"
        aria-label={t('services.listName')}
        tabIndex={0}
        aria-activedescendant={activeItem ? optionId(activeItem.code) : undefined}
        onKeyDown={onKeyDown}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((row) => {
            const item = shown[row.index];
            if (item === undefined) return null;
            const isSelected = item.code === selected;
            return (
              <div
                key={item.code}
                id={optionId(item.code)}
                role="option"
                aria-selected={isSelected}
                aria-describedby={`${optionId(item.code)}-d`}
                aria-posinset={row.index + 1}
                aria-setsize={shown.length}
                className={`option${isSelected ? ' option-selected' : ''}${row.index === active ? ' option-active' : ''}`}
                style={{ position: 'absolute', top: 0, left: 0, right: 0, height: row.size, transform: `translateY(${row.start}px)` }}
                onClick={() => {
                  setActive(row.index);
                  select(item.code);
                }}
              >
                <span className="option-code">{item.code}</span>
                <span className="option-text">
                  <span className="option-name">{item.name}</span>
                  {/* Described, not named: the option's name stays "code name", the way nurses search. */}
                  <span id={`${optionId(item.code)}-d`} className="option-extra" aria-hidden="true">
                    <span className={`scenario scenario-${item.scenario}`}>{t(`scenario.${item.scenario}.name`)}</span>
                    {item.tariffKes !== null && <span className="option-tariff">{format.kes(item.tariffKes)}</span>}
                  </span>
                </span>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

function optionId(code: string): string {
  return `iv-${code.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}
