from siftui.cli import main

raise SystemExit(main())
