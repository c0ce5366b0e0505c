"""Write each state machine's definition, with DefinitionSubstitutions applied as
CloudFormation would, to a folder (the ASL validator checks these in `make lint`)."""

from __future__ import annotations

import sys
from pathlib import Path

from infra.local.template import build_plan


def main(out: str) -> None:
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    for machine in build_plan(stage="dev").state_machines.values():
        (folder / f"{machine.logical_id}.json").write_text(machine.definition)


if __name__ == "__main__":
    main(sys.argv[1])
